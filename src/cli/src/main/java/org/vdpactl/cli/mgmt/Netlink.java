package org.vdpactl.cli.mgmt;

import org.vdpactl.cli.CliContext;
import org.vdpactl.mgmt.VdpaNetlink;

/** Opens the vdpa netlink family on the running command's backend. */
public final class Netlink {
    private Netlink() {
    }

    public static VdpaNetlink open(CliContext ctx) {
        return VdpaNetlink.open(ctx.syscalls());
    }
}
