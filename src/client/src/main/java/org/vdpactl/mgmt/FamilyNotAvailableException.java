package org.vdpactl.mgmt;

import org.vdpactl.netlink.NetlinkException;
import org.vdpactl.sys.Errno;

/**
 * The kernel has no "vdpa" generic netlink family (ENOENT): the {@code vdpa} module is not
 * loaded, or the caller is outside the initial network namespace (the family is not netns-aware).
 */
public final class FamilyNotAvailableException extends NetlinkException {
    public static final String MESSAGE = "vdpa netlink family not available: is the vdpa module loaded?";

    public FamilyNotAvailableException(NetlinkException cause) {
        super("CTRL_CMD_GETFAMILY vdpa", Errno.ENOENT, cause.extack(),
                "not in the initial network namespace? the vdpa family exists only there", cause);
    }

    @Override
    public String getMessage() {
        return MESSAGE;
    }
}
