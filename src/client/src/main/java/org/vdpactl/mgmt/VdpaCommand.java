package org.vdpactl.mgmt;

import java.util.Optional;
import org.vdpactl.ffi.gen.vhost.vhost_h;

/** The commands of the vdpa generic netlink family ({@code enum vdpa_command}, numbers from the generated bindings). */
public enum VdpaCommand {
    UNSPEC(vhost_h.VDPA_CMD_UNSPEC()),
    MGMTDEV_NEW(vhost_h.VDPA_CMD_MGMTDEV_NEW()),
    MGMTDEV_GET(vhost_h.VDPA_CMD_MGMTDEV_GET()),
    DEV_NEW(vhost_h.VDPA_CMD_DEV_NEW()),
    DEV_DEL(vhost_h.VDPA_CMD_DEV_DEL()),
    DEV_GET(vhost_h.VDPA_CMD_DEV_GET()),
    DEV_CONFIG_GET(vhost_h.VDPA_CMD_DEV_CONFIG_GET()),
    DEV_VSTATS_GET(vhost_h.VDPA_CMD_DEV_VSTATS_GET()),
    DEV_ATTR_SET(vhost_h.VDPA_CMD_DEV_ATTR_SET());

    private final int number;

    VdpaCommand(int number) {
        this.number = number;
    }

    public int number() {
        return number;
    }

    /** The uapi name, e.g. {@code "VDPA_CMD_DEV_NEW"} (also the fault-injection key). */
    public String constantName() {
        return "VDPA_CMD_" + name();
    }

    public static Optional<VdpaCommand> of(int number) {
        for (VdpaCommand c : values()) {
            if (c.number == number) {
                return Optional.of(c);
            }
        }
        return Optional.empty();
    }
}
