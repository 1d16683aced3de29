package org.vdpactl.mgmt;

import java.util.Optional;
import org.vdpactl.abi.UapiVdpaCommand;

/**
 * The commands of the vdpa generic netlink family ({@code enum vdpa_command}), each the ABI's
 * {@link UapiVdpaCommand} (numbers from the generated bindings, read there).
 */
public enum VdpaCommand {
    /** {@code VDPA_CMD_UNSPEC}: 0, as every genl family's first command; the ABI lists only real commands. */
    UNSPEC(null),
    MGMTDEV_NEW(UapiVdpaCommand.VDPA_CMD_MGMTDEV_NEW),
    MGMTDEV_GET(UapiVdpaCommand.VDPA_CMD_MGMTDEV_GET),
    DEV_NEW(UapiVdpaCommand.VDPA_CMD_DEV_NEW),
    DEV_DEL(UapiVdpaCommand.VDPA_CMD_DEV_DEL),
    DEV_GET(UapiVdpaCommand.VDPA_CMD_DEV_GET),
    DEV_CONFIG_GET(UapiVdpaCommand.VDPA_CMD_DEV_CONFIG_GET),
    DEV_VSTATS_GET(UapiVdpaCommand.VDPA_CMD_DEV_VSTATS_GET),
    DEV_ATTR_SET(UapiVdpaCommand.VDPA_CMD_DEV_ATTR_SET);

    private final UapiVdpaCommand uapi;

    VdpaCommand(UapiVdpaCommand uapi) {
        this.uapi = uapi;
    }

    /** The kernel's command this is (null for UNSPEC). */
    public UapiVdpaCommand uapi() {
        return uapi;
    }

    public int number() {
        return uapi == null ? 0 : uapi.number();
    }

    /** The uapi name, e.g. {@code "VDPA_CMD_DEV_NEW"} (also the fault-injection key). */
    public String constantName() {
        return "VDPA_CMD_" + name();
    }

    public static Optional<VdpaCommand> of(int number) {
        for (VdpaCommand c : values()) {
            if (c.number() == number) {
                return Optional.of(c);
            }
        }
        return Optional.empty();
    }
}
