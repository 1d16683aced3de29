package org.vdpactl.orchestra;

import org.vdpactl.vhost.VhostIoctl;

/**
 * The span names of the per-virtqueue calls of one device ("VHOST_SET_VRING_NUM vq3"), built once
 * when the device's virtqueue count is known. A window configures every virtqueue of every device,
 * and concatenating the name on each call was one allocation per call on the window's path.
 */
final class VqCallNames {
    static final int GET_BASE = 0;
    static final int SET_NUM = 1;
    static final int SET_BASE = 2;
    static final int SET_ADDR = 3;
    static final int SET_KICK = 4;
    static final int SET_CALL = 5;
    static final int ENABLE = 6;
    private static final VhostIoctl[] OPS = {VhostIoctl.GET_VRING_BASE, VhostIoctl.SET_VRING_NUM, VhostIoctl.SET_VRING_BASE,
        VhostIoctl.SET_VRING_ADDR, VhostIoctl.SET_VRING_KICK, VhostIoctl.SET_VRING_CALL, VhostIoctl.VDPA_SET_VRING_ENABLE};

    /** Names kept per device at most (a device reporting an absurd count gets its names built per call). */
    private static final int MAX_CACHED = 1024;
    private final String[][] names;

    VqCallNames(int vqCount) {
        int cached = Math.max(0, Math.min(vqCount, MAX_CACHED));
        names = new String[OPS.length][cached];
        for (int op = 0; op < OPS.length; op++) {
            for (int vq = 0; vq < cached; vq++) {
                names[op][vq] = OPS[op].kernelName() + " vq" + vq;
            }
        }
    }

    /** The name of {@code op} on {@code vq}; built on the spot for a virtqueue outside the device's count. */
    String name(int op, int vq) {
        String[] byVq = names[op];
        return vq >= 0 && vq < byVq.length ? byVq[vq] : OPS[op].kernelName() + " vq" + vq;
    }
}
