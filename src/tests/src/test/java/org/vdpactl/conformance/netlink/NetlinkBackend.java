package org.vdpactl.conformance.netlink;

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

    @Override
    void close();
}
