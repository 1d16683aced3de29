package org.vdpactl.vhost;

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

    /** Capacity in bytes (capacity is in 512-byte sectors), saturating; null without capacity. */
    public Long capacityBytes() {
        if (capacity == null) {
            return null;
        }
        return Long.compareUnsigned(capacity, Long.MAX_VALUE >>> 9) > 0 ? Long.MAX_VALUE : capacity << 9;
    }
}
