package org.vdpactl.vhost;

/**
 * {@code struct virtio_blk_config} (little-endian fields, packed; 96 bytes in 6.12). A field is null
 * when the config space is too short to hold it; whether a present field is meaningful depends on
 * the negotiated VIRTIO_BLK_F_* features.
 *
 * @param length                       bytes decoded
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
public record BlkConfig(int length, long capacity, Long sizeMax, Long segMax, Geometry geometry, Long blkSize,
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

    /** Capacity in bytes (capacity is in 512-byte sectors), saturating. */
    public long capacityBytes() {
        return Long.compareUnsigned(capacity, Long.MAX_VALUE >>> 9) > 0 ? Long.MAX_VALUE : capacity << 9;
    }
}
