package org.vdpactl.fake.device;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Objects;

import org.vdpactl.ffi.gen.vhost.vhost_h;
import org.vdpactl.ffi.gen.vhost.virtio_blk_config;
import org.vdpactl.ffi.gen.vhost.virtio_net_config;

/**
 * A device's virtio config space, laid out with the generated virtio_net_config / virtio_blk_config
 * structs. Net devices store what was provisioned and written; block devices (vdpa_sim_blk)
 * regenerate theirs on every read, so writes never show.
 *
 * <p>The stored bytes are laid out on first use, not when the device is made: every command on the fake restores
 * every device of its state, and a listing never reads a config space, while the generated layout class builds its
 * layouts and VarHandles (method handles and lambda forms made at run time, which the AOT cache does not keep) when
 * it is first used. The provisioned MAC answers {@link #mac()} until then.
 */
final class ConfigSpace {
    private static final ValueLayout.OfShort LE16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfInt LE32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong LE64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    /** vdpa_sim_blk: VDPASIM_BLK_CAPACITY sectors. */
    private static final long BLK_CAPACITY = 0x40000;
    private static final int BLK_SIZE_MAX = 4096;
    private static final int BLK_SEG_MAX = 32;
    private static final int SECTOR_SIZE = 512;
    /** VDPASIM_BLK_DWZ_MAX_SECTORS. */
    private static final int BLK_DWZ_MAX_SECTORS = 0xFFFF_FFFF;

    /** The device-feature gate of a config space whose fields are all filled whatever the features. */
    static final long ALL_FIELDS = -1L;

    private final DeviceProfile.Config rules;
    /** The bytes the device stores, laid out by {@link #stored()} on first use; null until then. */
    private byte[] stored;
    /**
     * What a net config is laid out from ({@link #net}), and what the driver set before the layout ({@link #setMac},
     * {@link #setMtu}): the MAC is a copy, or null for zeros; {@code setMtu} null while the driver set none.
     */
    private byte[] provisionedMac;
    private final Integer provisionedMtu;
    private Integer setMtu;
    private final int pairs;
    private final long gate;
    private final boolean net;
    private final int blkQueues;
    /** The net status field is filled (VIRTIO_NET_F_STATUS among the gating features). */
    private final boolean statusField;
    /**
     * VIRTIO_NET_S_LINK_UP as the driver last wrote it into the status field (mlx5 update_carrier), or null while
     * the driver never did: then the profile's rule ({@code linkUpOnRead}) answers.
     */
    private Boolean linkUp;

    private ConfigSpace(DeviceProfile.Config rules, int blkQueues, boolean statusField, boolean net, byte[] mac, Integer mtu,
                        int pairs, long gate) {
        this.rules = rules;
        this.blkQueues = blkQueues;
        this.statusField = statusField;
        this.net = net;
        this.provisionedMac = mac == null ? null : mac.clone();
        this.provisionedMtu = mtu;
        this.pairs = pairs;
        this.gate = gate;
    }

    /**
     * A net config: MAC (or zeros), MTU (or the default), max_virtqueue_pairs per the profile. A driver
     * that fills MTU, status and max_virtqueue_pairs only for the device features it offers (mlx5
     * 6.12+ dev_add: F_MTU, F_STATUS, F_MQ) passes them as {@code gate}; others pass {@link #ALL_FIELDS}.
     */
    static ConfigSpace net(DeviceProfile.Config rules, byte[] mac, Integer mtu, int pairs, long gate) {
        return new ConfigSpace(rules, 0, has(gate, vhost_h.VIRTIO_NET_F_STATUS()), true, mac, mtu, pairs, gate);
    }

    /** The stored bytes, laid out now if this is their first use (see the class comment). */
    private synchronized byte[] stored() {
        if (stored == null) {
            byte[] bytes = new byte[rules.size()];
            if (net) {
                MemorySegment s = MemorySegment.ofArray(bytes);
                if (provisionedMac != null) {
                    MemorySegment.copy(MemorySegment.ofArray(provisionedMac), 0, s, virtio_net_config.mac$offset(), 6);
                }
                if (has(gate, vhost_h.VIRTIO_NET_F_MTU())) {
                    s.set(LE16, virtio_net_config.mtu$offset(), (short) (provisionedMtu != null ? provisionedMtu : rules.defaultMtu()));
                }
                if (has(gate, vhost_h.VIRTIO_NET_F_MQ())) {
                    s.set(LE16, virtio_net_config.max_virtqueue_pairs$offset(),
                            (short) ("pairs".equals(rules.maxVqPairsField()) ? pairs : 0));
                }
                if (setMtu != null) {
                    s.set(LE16, virtio_net_config.mtu$offset(), (short) (int) setMtu);
                }
            }
            stored = bytes;
        }
        return stored;
    }

    private static boolean has(long features, int bit) {
        return (features & (1L << bit)) != 0;
    }

    static ConfigSpace blk(DeviceProfile.Config rules, int queues) {
        return new ConfigSpace(rules, queues, false, false, null, null, 0, 0);
    }

    int size() {
        return rules.size();
    }

    /** Whether the stored bytes were laid out yet (they are on first use). */
    synchronized boolean laidOut() {
        return stored != null;
    }

    /** The whole config space as the device presents it right now. */
    byte[] read() {
        if ("blk".equals(rules.kind())) {
            return blkConfig();
        }
        byte[] out = stored().clone();
        if (linkUp != null) {
            MemorySegment.ofArray(out).set(LE16, virtio_net_config.status$offset(),
                    (short) (linkUp ? vhost_h.VIRTIO_NET_S_LINK_UP() : 0));
        } else if (rules.linkUpOnRead() && statusField) {
            MemorySegment.ofArray(out).set(LE16, virtio_net_config.status$offset(), (short) vhost_h.VIRTIO_NET_S_LINK_UP());
        }
        return out;
    }

    /** set_config: stored where the device keeps writes, else dropped. */
    void write(int offset, byte[] data) {
        if (rules.writable()) {
            byte[] bytes = stored();
            System.arraycopy(data, 0, bytes, offset, Math.min(data.length, bytes.length - offset));
        }
    }

    /** The driver sets or clears VIRTIO_NET_S_LINK_UP in the status field (whatever the gating features were). */
    void setLinkUp(boolean up) {
        linkUp = up;
    }

    /** Whether the status field reads VIRTIO_NET_S_LINK_UP now. */
    boolean linkUp() {
        return linkUp != null ? linkUp : rules.linkUpOnRead() && statusField;
    }

    /** The MTU field (the driver's query of the vport MTU at dev add: before the layout, kept for it). */
    synchronized void setMtu(int mtu) {
        if (stored == null) {
            setMtu = mtu;
            return;
        }
        segment().set(LE16, virtio_net_config.mtu$offset(), (short) mtu);
    }

    /** The MAC field (before the layout, kept for it). */
    synchronized void setMac(byte[] mac) {
        if (stored == null) {
            Objects.checkFromIndexSize(0, 6, mac.length); // as the copy into the laid-out bytes would
            provisionedMac = Arrays.copyOf(mac, 6);
            return;
        }
        MemorySegment.copy(MemorySegment.ofArray(mac), 0, segment(), virtio_net_config.mac$offset(), 6);
    }

    byte[] mac() {
        synchronized (this) {
            if (stored == null) {
                // what stored() lays out in the MAC field: the provisioned MAC, or zeros
                return provisionedMac != null ? provisionedMac.clone() : new byte[6];
            }
        }
        byte[] mac = new byte[6];
        MemorySegment.copy(segment(), virtio_net_config.mac$offset(), MemorySegment.ofArray(mac), 0, 6);
        return mac;
    }

    private MemorySegment segment() {
        return MemorySegment.ofArray(stored());
    }

    private byte[] blkConfig() {
        byte[] out = new byte[rules.size()];
        MemorySegment s = MemorySegment.ofArray(out);
        s.set(LE64, virtio_blk_config.capacity$offset(), BLK_CAPACITY);
        s.set(LE32, virtio_blk_config.size_max$offset(), BLK_SIZE_MAX);
        s.set(LE32, virtio_blk_config.seg_max$offset(), BLK_SEG_MAX);
        s.set(LE16, virtio_blk_config.num_queues$offset(), (short) blkQueues);
        s.set(LE16, virtio_blk_config.min_io_size$offset(), (short) 1);
        s.set(LE32, virtio_blk_config.opt_io_size$offset(), 1);
        s.set(LE32, virtio_blk_config.blk_size$offset(), SECTOR_SIZE);
        s.set(LE32, virtio_blk_config.discard_sector_alignment$offset(), SECTOR_SIZE);
        s.set(LE32, virtio_blk_config.max_discard_sectors$offset(), BLK_DWZ_MAX_SECTORS);
        s.set(LE32, virtio_blk_config.max_discard_seg$offset(), 1);
        s.set(LE32, virtio_blk_config.max_write_zeroes_sectors$offset(), BLK_DWZ_MAX_SECTORS);
        s.set(LE32, virtio_blk_config.max_write_zeroes_seg$offset(), 1);
        return out;
    }
}
