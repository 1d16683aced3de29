package org.vdpactl.conformance.netlink;

import java.util.function.BooleanSupplier;
import org.vdpactl.sys.Syscalls;

/**
 * What the netlink conformance suite runs against. Both backends present the verified setup
 * (verified-netlink.md): management devices vdpasim_net and vdpasim_blk, vdpa0 on vdpasim_net
 * with MAC 02:00:00:00:00:01, vdpa1 on vdpasim_blk. Both also have the vduse management device
 * (a kernel built with VDUSE); the suite looks devices up by name and never counts them.
 */
public interface NetlinkBackend extends AutoCloseable {

    /** A seam whose calls carry CAP_NET_ADMIN. */
    Syscalls privileged();

    /** A seam whose calls lack CAP_NET_ADMIN (the same kernel, the same devices). */
    Syscalls unprivileged();

    /**
     * What tells that a DEV_DEL of the device behind {@code nodePath} is parked in vhost_vdpa_remove's
     * wait for the node's close; asked before the delete starts. A real kernel cannot be asked: there
     * the removal of the node is the signal (vhost_vdpa_remove removes the node, then waits), so the
     * default answers true.
     */
    default BooleanSupplier deleterParked(String nodePath) {
        return () -> true;
    }

    @Override
    void close();
}
