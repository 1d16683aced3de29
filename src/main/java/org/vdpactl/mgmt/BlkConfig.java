package org.vdpactl.mgmt;

/**
 * The virtio-blk part of VDPA_CMD_DEV_CONFIG_GET (6.12+). Capacity, read-only and flush are
 * always sent; the others only with their VIRTIO_BLK_F_* bit, else null. 32-bit fields are held
 * as unsigned longs.
 */
public record BlkConfig(Long capacity, Long sizeMax, Long blkSize, Long segMax, Integer numQueues,
                        Integer physicalBlockExp, Integer alignmentOffset, Integer minIoSize, Long optIoSize,
                        Long maxDiscardSectors, Long maxDiscardSeg, Long discardSectorAlignment,
                        Long maxWriteZeroesSectors, Long maxWriteZeroesSeg, Boolean readOnly, Boolean flush) {
}
