package org.vdpactl.conformance.device;

import org.vdpactl.sys.Syscalls;

/**
 * What the device conformance suite runs against: a syscall seam and the two reference nodes.
 * Both backends present the same devices (kernel-abi.md §9, verified-device.md):
 * {@code netNode} = vdpasim_net with MAC 02:00:00:00:00:01, {@code blkNode} = vdpasim_blk.
 *
 * @param syscalls the seam (the kernel or a fake process)
 * @param netNode  /dev/vhost-vdpa-0 of a vdpasim_net device
 * @param blkNode  /dev/vhost-vdpa-1 of a vdpasim_blk device
 * @param release  what to release after a case (the fake kernel; nothing for the real one)
 */
public record DeviceBackend(Syscalls syscalls, String netNode, String blkNode, AutoCloseable release) implements AutoCloseable {

    /** The lane's device setup: vdpa0 → /dev/vhost-vdpa-0 (net), vdpa1 → /dev/vhost-vdpa-1 (blk). */
    public static DeviceBackend standardNodes(Syscalls syscalls, AutoCloseable release) {
        return new DeviceBackend(syscalls, "/dev/vhost-vdpa-0", "/dev/vhost-vdpa-1", release);
    }

    @Override
    public void close() throws Exception {
        release.close();
    }
}
