package org.vdpactl.cli;

import org.vdpactl.fake.FakeProcess;
import org.vdpactl.sys.Syscalls;
import org.vdpactl.vhost.VhostNodeException;

/**
 * The one line for a DEV argument that names no vhost-vdpa node. On the fake backend a path is looked up in the fake
 * kernel's own namespace (its /dev/vhost-vdpa-N nodes and /sys), never the host's: "/dev/vhost-vdpa-7: cannot stat:
 * ENOENT" of a node that exists on the host read as a wrong answer until the line said where it looked.
 */
public final class NodeArgumentFailure {
    private NodeArgumentFailure() {
    }

    /** {@code e} as the CLI's failure, with where the path was looked up when {@code sys} is the fake kernel's process. */
    public static CliFailure of(Syscalls sys, VhostNodeException e) {
        boolean fakePath = sys instanceof FakeProcess && e.reason() == VhostNodeException.Reason.MISSING && e.what().contains("/");
        return CliFailure.from(e, fakePath ? e.getMessage() + " in the fake kernel's namespace (--backend fake looks paths up"
                + " among its own /dev/vhost-vdpa-N nodes, not the host's files; `dev list` names its devices)" : e.getMessage());
    }
}
