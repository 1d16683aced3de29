package org.vdpactl.fake.mlx5;

import org.vdpactl.ffi.gen.vhost.vhost_h;

/** The virtio-net feature sets the mlx5 model reasons about (bit numbers from the kernel headers). */
public final class Mlx5NetFeatures {
    /** Features the modelled mlx5 function offers. */
    public static final long SUPPORTED = bits(vhost_h.VIRTIO_NET_F_CSUM(), vhost_h.VIRTIO_NET_F_GUEST_CSUM(),
            vhost_h.VIRTIO_NET_F_MTU(), vhost_h.VIRTIO_NET_F_MAC(), vhost_h.VIRTIO_NET_F_GUEST_TSO4(),
            vhost_h.VIRTIO_NET_F_GUEST_TSO6(), vhost_h.VIRTIO_NET_F_GUEST_ECN(), vhost_h.VIRTIO_NET_F_HOST_TSO4(),
            vhost_h.VIRTIO_NET_F_HOST_TSO6(), vhost_h.VIRTIO_NET_F_MRG_RXBUF(), vhost_h.VIRTIO_NET_F_STATUS(),
            vhost_h.VIRTIO_NET_F_CTRL_VQ(), vhost_h.VIRTIO_NET_F_CTRL_VLAN(), vhost_h.VIRTIO_NET_F_MQ(),
            vhost_h.VIRTIO_NET_F_CTRL_MAC_ADDR(), vhost_h.VIRTIO_F_VERSION_1(), vhost_h.VIRTIO_F_ACCESS_PLATFORM());

    /** Device features when provisioning gives none: MRG_RXBUF is dropped (§1.3). */
    public static final long DEFAULT_DEVICE = SUPPORTED & ~bits(vhost_h.VIRTIO_NET_F_MRG_RXBUF());

    /** The VQ feature subset carried in the VQ object (§3.2). */
    static final long VQ_SUBSET = bits(vhost_h.VIRTIO_NET_F_CSUM(), vhost_h.VIRTIO_NET_F_GUEST_TSO4(),
            vhost_h.VIRTIO_NET_F_GUEST_TSO6(), vhost_h.VIRTIO_NET_F_GUEST_ECN(), vhost_h.VIRTIO_NET_F_HOST_TSO4(),
            vhost_h.VIRTIO_NET_F_HOST_TSO6(), vhost_h.VIRTIO_NET_F_MRG_RXBUF(), vhost_h.VIRTIO_F_VERSION_1());

    /** Negotiated-vs-provisioned differences that force a VQ re-create at DRIVER_OK on 6.11+ (§3.3). */
    static final long RECREATE_ON_DIFFERENCE = bits(vhost_h.VIRTIO_NET_F_MRG_RXBUF(), vhost_h.VIRTIO_NET_F_CSUM(),
            vhost_h.VIRTIO_F_VERSION_1());

    static final long ACCESS_PLATFORM = bits(vhost_h.VIRTIO_F_ACCESS_PLATFORM());
    static final long MQ = bits(vhost_h.VIRTIO_NET_F_MQ());
    static final long CTRL_VQ = bits(vhost_h.VIRTIO_NET_F_CTRL_VQ());
    static final long STATUS = bits(vhost_h.VIRTIO_NET_F_STATUS());

    private Mlx5NetFeatures() {
    }

    /** The feature word with the given bit numbers set. */
    public static long bits(int... bitNumbers) {
        long v = 0;
        for (int b : bitNumbers) {
            v |= 1L << b;
        }
        return v;
    }
}
