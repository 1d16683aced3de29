package org.vdpactl.cli.vhost;

import org.vdpactl.cli.NodeArgumentFailure;
import org.vdpactl.sys.Syscalls;
import org.vdpactl.vhost.VhostDeviceNodes;
import org.vdpactl.vhost.VhostNodeException;
import org.vdpactl.vhost.VhostVdpaDevice;

/** Opens a DEV argument (name or path) or an inherited fd, with errors the CLI can print as one line. */
final class DeviceOpener {
    private DeviceOpener() {
    }

    static VhostVdpaDevice open(Syscalls sys, String dev) {
        VhostDeviceNodes.Node node;
        try {
            node = VhostDeviceNodes.resolve(sys, dev);
        } catch (VhostNodeException e) {
            throw NodeArgumentFailure.of(sys, e);
        }
        return VhostVdpaDevice.open(sys, node.path());
    }

    /** A descriptor opened and passed in by a privileged parent (libvirt style); never closed by us. */
    static VhostVdpaDevice inherited(Syscalls sys, int fd) {
        if (fd < 0) {
            throw new IllegalArgumentException("--fd must be a non-negative file descriptor, got " + fd);
        }
        return VhostVdpaDevice.fromFd(sys, fd, "fd " + fd, false);
    }
}
