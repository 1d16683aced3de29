package org.vdpactl.abi;

import org.vdpactl.ffi.gen.vhost.vhost_h;

/**
 * Every command of the vdpa generic-netlink family ({@code enum vdpa_command} of linux/vdpa.h), with the
 * number jextract evaluated from the uapi headers. The fake's vdpa family dispatches on these constants, and
 * {@link KernelProfile} lists what each kernel release's family has by the same names.
 */
public enum UapiVdpaCommand {
    VDPA_CMD_MGMTDEV_NEW(vhost_h.VDPA_CMD_MGMTDEV_NEW()),
    VDPA_CMD_MGMTDEV_GET(vhost_h.VDPA_CMD_MGMTDEV_GET()),
    VDPA_CMD_DEV_NEW(vhost_h.VDPA_CMD_DEV_NEW()),
    VDPA_CMD_DEV_DEL(vhost_h.VDPA_CMD_DEV_DEL()),
    VDPA_CMD_DEV_GET(vhost_h.VDPA_CMD_DEV_GET()),
    VDPA_CMD_DEV_CONFIG_GET(vhost_h.VDPA_CMD_DEV_CONFIG_GET()),
    VDPA_CMD_DEV_VSTATS_GET(vhost_h.VDPA_CMD_DEV_VSTATS_GET()),
    VDPA_CMD_DEV_ATTR_SET(vhost_h.VDPA_CMD_DEV_ATTR_SET());

    private final int number;

    UapiVdpaCommand(int number) {
        this.number = number;
    }

    /** The genl command number ({@code genlmsghdr.cmd}). */
    public int number() {
        return number;
    }

    /** The command with this number, or null (VDPA_CMD_UNSPEC and unknown numbers). */
    public static UapiVdpaCommand forNumber(int number) {
        for (UapiVdpaCommand c : values()) {
            if (c.number == number) {
                return c;
            }
        }
        return null;
    }
}
