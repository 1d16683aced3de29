package org.vdpactl.vhost;

import org.vdpactl.ffi.gen.vhost.vhost_h;

/**
 * A virtio-blk device's configuration, {@code struct virtio_blk_config} (packed; 96 bytes in 6.12).
 * One record for both ways vdpactl learns it: {@link VirtioConfigDecoder#blk} decodes the
 * config-space bytes (little-endian fields), and the management layer fills the fields that
 * VDPA_CMD_DEV_CONFIG_GET (6.12+) sends as attributes ({@link #ofNetlink}). A field is null when the
 * source did not carry it: config space too short to hold it, or an attribute the kernel sends only
 * with its VIRTIO_BLK_F_* bit. Whether a present field is meaningful depends on the negotiated
 * features. 32-bit fields are held as unsigned longs.
 *
 * @param length                       config-space bytes decoded; null when the fields came from netlink attributes
 * @param capacity                     in 512-byte sectors
 * @param sizeMax                      size_max
 * @param segMax                       seg_max
 * @param geometry                     geometry
 * @param blkSize                      blk_size
 * @param physicalBlockExp             physical_block_exp
 * @param alignmentOffset              alignment_offset
 * @param minIoSize                    min_io_size
 * @param optIoSize                    opt_io_size
 * @param writeback                    wce
 * @param numQueues                    num_queues
 * @param maxDiscardSectors            max_discard_sectors
 * @param maxDiscardSeg                max_discard_seg
 * @param discardSectorAlignment       discard_sector_alignment
 * @param maxWriteZeroesSectors        max_write_zeroes_sectors
 * @param maxWriteZeroesSeg            max_write_zeroes_seg
 * @param writeZeroesMayUnmap          write_zeroes_may_unmap
 * @param maxSecureEraseSectors        max_secure_erase_sectors
 * @param maxSecureEraseSeg            max_secure_erase_seg
 * @param secureEraseSectorAlignment   secure_erase_sector_alignment
 * @param zoned                        zoned characteristics
 */
public record BlkConfig(Integer length, Long capacity, Long sizeMax, Long segMax, Geometry geometry, Long blkSize,
        Integer physicalBlockExp, Integer alignmentOffset, Integer minIoSize, Long optIoSize, Integer writeback,
        Integer numQueues, Long maxDiscardSectors, Long maxDiscardSeg, Long discardSectorAlignment,
        Long maxWriteZeroesSectors, Long maxWriteZeroesSeg, Integer writeZeroesMayUnmap, Long maxSecureEraseSectors,
        Long maxSecureEraseSeg, Long secureEraseSectorAlignment, Zoned zoned) implements DeviceConfig {

    /** {@code struct virtio_blk_geometry}. */
    public record Geometry(int cylinders, int heads, int sectors) {
    }

    /** {@code struct virtio_blk_zoned_characteristics}. */
    public record Zoned(long zoneSectors, long maxOpenZones, long maxActiveZones, long maxAppendSectors,
            long writeGranularity, int model) {
    }

    /**
     * The fields VDPA_CMD_DEV_CONFIG_GET carries for a block device (VDPA_ATTR_DEV_BLK_CFG_*); the
     * others stay null.
     */
    public static BlkConfig ofNetlink(Long capacity, Long sizeMax, Long blkSize, Long segMax, Integer numQueues,
            Integer physicalBlockExp, Integer alignmentOffset, Integer minIoSize, Long optIoSize, Long maxDiscardSectors,
            Long maxDiscardSeg, Long discardSectorAlignment, Long maxWriteZeroesSectors, Long maxWriteZeroesSeg) {
        return new BlkConfig(null, capacity, sizeMax, segMax, null, blkSize, physicalBlockExp, alignmentOffset, minIoSize,
                optIoSize, null, numQueues, maxDiscardSectors, maxDiscardSeg, discardSectorAlignment, maxWriteZeroesSectors,
                maxWriteZeroesSeg, null, null, null, null, null);
    }

    /**
     * This config with only the fields the device's features make valid; the others null (as {@link NetConfig#validFor}).
     * The rules are Linux 6.12's vdpa_dev_blk_config_fill for the fields {@code vdpa dev config show} prints (capacity
     * always; size_max, seg_max, blk_size and num_queues with F_SIZE_MAX, F_SEG_MAX, F_BLK_SIZE, F_MQ; the topology
     * fields with F_TOPOLOGY; the discard fields with F_DISCARD; the write-zeroes limits with F_WRITE_ZEROES), and the
     * virtio spec's (1.2, 5.2.4) for the rest: geometry with F_GEOMETRY, wce with F_CONFIG_WCE, write_zeroes_may_unmap
     * with F_WRITE_ZEROES, the secure-erase fields with F_SECURE_ERASE, the zoned characteristics with F_ZONED.
     * Without its bit a field holds what the device left there (zeros on vdpa_sim_blk: "geometry 0/0/0"), no fact.
     *
     * @param deviceFeatures VHOST_GET_FEATURES (the device's offered features)
     */
    public BlkConfig validFor(long deviceFeatures) {
        boolean topology = has(deviceFeatures, vhost_h.VIRTIO_BLK_F_TOPOLOGY());
        boolean discard = has(deviceFeatures, vhost_h.VIRTIO_BLK_F_DISCARD());
        boolean zeroes = has(deviceFeatures, vhost_h.VIRTIO_BLK_F_WRITE_ZEROES());
        boolean erase = has(deviceFeatures, vhost_h.VIRTIO_BLK_F_SECURE_ERASE());
        return new BlkConfig(length, capacity,
                has(deviceFeatures, vhost_h.VIRTIO_BLK_F_SIZE_MAX()) ? sizeMax : null,
                has(deviceFeatures, vhost_h.VIRTIO_BLK_F_SEG_MAX()) ? segMax : null,
                has(deviceFeatures, vhost_h.VIRTIO_BLK_F_GEOMETRY()) ? geometry : null,
                has(deviceFeatures, vhost_h.VIRTIO_BLK_F_BLK_SIZE()) ? blkSize : null,
                topology ? physicalBlockExp : null, topology ? alignmentOffset : null, topology ? minIoSize : null,
                topology ? optIoSize : null,
                has(deviceFeatures, vhost_h.VIRTIO_BLK_F_CONFIG_WCE()) ? writeback : null,
                has(deviceFeatures, vhost_h.VIRTIO_BLK_F_MQ()) ? numQueues : null,
                discard ? maxDiscardSectors : null, discard ? maxDiscardSeg : null, discard ? discardSectorAlignment : null,
                zeroes ? maxWriteZeroesSectors : null, zeroes ? maxWriteZeroesSeg : null, zeroes ? writeZeroesMayUnmap : null,
                erase ? maxSecureEraseSectors : null, erase ? maxSecureEraseSeg : null, erase ? secureEraseSectorAlignment : null,
                has(deviceFeatures, vhost_h.VIRTIO_BLK_F_ZONED()) ? zoned : null);
    }

    private static boolean has(long features, int bit) {
        return (features & (1L << bit)) != 0;
    }

    /** Capacity in bytes (capacity is in 512-byte sectors), saturating; null without capacity. */
    public Long capacityBytes() {
        if (capacity == null) {
            return null;
        }
        return Long.compareUnsigned(capacity, Long.MAX_VALUE >>> 9) > 0 ? Long.MAX_VALUE : capacity << 9;
    }
}
