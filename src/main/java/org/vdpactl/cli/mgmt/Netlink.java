package org.vdpactl.cli.mgmt;

import org.vdpactl.cli.CliContext;
import org.vdpactl.mgmt.VdpaNetlink;

/** Opens the vdpa netlink family on the current backend. */
final class Netlink {
    private Netlink() {
    }

    static VdpaNetlink open() {
        return VdpaNetlink.open(CliContext.current().syscalls());
    }
}
