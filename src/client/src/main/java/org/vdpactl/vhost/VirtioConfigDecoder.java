package org.vdpactl.vhost;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.HexFormat;

import org.vdpactl.ffi.gen.vhost.virtio_blk_config;
import org.vdpactl.ffi.gen.vhost.virtio_blk_config.virtio_blk_geometry;
import org.vdpactl.ffi.gen.vhost.virtio_blk_config.virtio_blk_zoned_characteristics;
import org.vdpactl.ffi.gen.vhost.virtio_net_config;

/**
 * Decodes virtio config spaces (as returned by VHOST_VDPA_GET_CONFIG) with the generated layouts
 * {@code virtio_net_config} / {@code virtio_blk_config}, reading every field little-endian (virtio
 * 1.x) whatever the host order. Accepts arbitrary bytes: a config shorter than a struct leaves the
 * missing fields null; too few bytes for the fields every device has, or absurdly many, give a
 * {@link ConfigParseError}. Never throws for bad input.
 */
public final class VirtioConfigDecoder {
    /** Larger than any config space (the virtio PCI device-config window is at most 4 KiB). */
    public static final int MAX_CONFIG_BYTES = 4096;

    private VirtioConfigDecoder() {
    }

    /** Decodes by device id: net and block are decoded, anything else is kept as {@link RawConfig}. */
    public static DecodeResult<DeviceConfig> decode(int deviceId, byte[] bytes) {
        if (deviceId == VirtioDeviceId.NET.id()) {
            return net(bytes).map(c -> c);
        }
        if (deviceId == VirtioDeviceId.BLOCK.id()) {
            return blk(bytes).map(c -> c);
        }
        DecodeResult<DeviceConfig> bad = checkLength(bytes, 0, null);
        return bad != null ? bad : DecodeResult.ok(RawConfig.of(deviceId, bytes));
    }

    /** {@code struct virtio_net_config}; needs at least the 6-byte MAC. */
    public static DecodeResult<NetConfig> net(byte[] bytes) {
        DecodeResult<NetConfig> bad = checkLength(bytes, virtio_net_config.mac$offset() + virtio_net_config.mac$layout().byteSize(), "mac");
        if (bad != null) {
            return bad;
        }
        Reader r = new Reader(bytes);
        byte[] mac = new byte[(int) virtio_net_config.mac$layout().byteSize()];
        System.arraycopy(bytes, (int) virtio_net_config.mac$offset(), mac, 0, mac.length);
        return DecodeResult.ok(new NetConfig(bytes.length, HexFormat.ofDelimiter(":").formatHex(mac),
                r.u16(virtio_net_config.status$layout(), virtio_net_config.status$offset()),
                r.u16(virtio_net_config.max_virtqueue_pairs$layout(), virtio_net_config.max_virtqueue_pairs$offset()),
                r.u16(virtio_net_config.mtu$layout(), virtio_net_config.mtu$offset()),
                r.u32(virtio_net_config.speed$layout(), virtio_net_config.speed$offset()),
                r.u8(virtio_net_config.duplex$layout(), virtio_net_config.duplex$offset()),
                r.u8(virtio_net_config.rss_max_key_size$layout(), virtio_net_config.rss_max_key_size$offset()),
                r.u16(virtio_net_config.rss_max_indirection_table_length$layout(),
                        virtio_net_config.rss_max_indirection_table_length$offset()),
                r.u32(virtio_net_config.supported_hash_types$layout(), virtio_net_config.supported_hash_types$offset())));
    }

    /** {@code struct virtio_blk_config}; needs at least the 8-byte capacity. */
    public static DecodeResult<BlkConfig> blk(byte[] bytes) {
        DecodeResult<BlkConfig> bad = checkLength(bytes,
                virtio_blk_config.capacity$offset() + virtio_blk_config.capacity$layout().byteSize(), "capacity");
        if (bad != null) {
            return bad;
        }
        Reader r = new Reader(bytes);
        return DecodeResult.ok(new BlkConfig(bytes.length,
                r.u64(virtio_blk_config.capacity$layout(), virtio_blk_config.capacity$offset()),
                r.u32(virtio_blk_config.size_max$layout(), virtio_blk_config.size_max$offset()),
                r.u32(virtio_blk_config.seg_max$layout(), virtio_blk_config.seg_max$offset()),
                geometry(r),
                r.u32(virtio_blk_config.blk_size$layout(), virtio_blk_config.blk_size$offset()),
                r.u8(virtio_blk_config.physical_block_exp$layout(), virtio_blk_config.physical_block_exp$offset()),
                r.u8(virtio_blk_config.alignment_offset$layout(), virtio_blk_config.alignment_offset$offset()),
                r.u16(virtio_blk_config.min_io_size$layout(), virtio_blk_config.min_io_size$offset()),
                r.u32(virtio_blk_config.opt_io_size$layout(), virtio_blk_config.opt_io_size$offset()),
                r.u8(virtio_blk_config.wce$layout(), virtio_blk_config.wce$offset()),
                r.u16(virtio_blk_config.num_queues$layout(), virtio_blk_config.num_queues$offset()),
                r.u32(virtio_blk_config.max_discard_sectors$layout(), virtio_blk_config.max_discard_sectors$offset()),
                r.u32(virtio_blk_config.max_discard_seg$layout(), virtio_blk_config.max_discard_seg$offset()),
                r.u32(virtio_blk_config.discard_sector_alignment$layout(), virtio_blk_config.discard_sector_alignment$offset()),
                r.u32(virtio_blk_config.max_write_zeroes_sectors$layout(), virtio_blk_config.max_write_zeroes_sectors$offset()),
                r.u32(virtio_blk_config.max_write_zeroes_seg$layout(), virtio_blk_config.max_write_zeroes_seg$offset()),
                r.u8(virtio_blk_config.write_zeroes_may_unmap$layout(), virtio_blk_config.write_zeroes_may_unmap$offset()),
                r.u32(virtio_blk_config.max_secure_erase_sectors$layout(), virtio_blk_config.max_secure_erase_sectors$offset()),
                r.u32(virtio_blk_config.max_secure_erase_seg$layout(), virtio_blk_config.max_secure_erase_seg$offset()),
                r.u32(virtio_blk_config.secure_erase_sector_alignment$layout(),
                        virtio_blk_config.secure_erase_sector_alignment$offset()),
                zoned(r)));
    }

    private static BlkConfig.Geometry geometry(Reader r) {
        long base = virtio_blk_config.geometry$offset();
        if (!r.has(base, virtio_blk_config.geometry$layout().byteSize())) {
            return null;
        }
        return new BlkConfig.Geometry(
                r.u16(virtio_blk_geometry.cylinders$layout(), base + virtio_blk_geometry.cylinders$offset()),
                r.u8(virtio_blk_geometry.heads$layout(), base + virtio_blk_geometry.heads$offset()),
                r.u8(virtio_blk_geometry.sectors$layout(), base + virtio_blk_geometry.sectors$offset()));
    }

    private static BlkConfig.Zoned zoned(Reader r) {
        long base = virtio_blk_config.zoned$offset();
        if (!r.has(base, virtio_blk_config.zoned$layout().byteSize())) {
            return null;
        }
        return new BlkConfig.Zoned(
                r.u32(virtio_blk_zoned_characteristics.zone_sectors$layout(), base + virtio_blk_zoned_characteristics.zone_sectors$offset()),
                r.u32(virtio_blk_zoned_characteristics.max_open_zones$layout(),
                        base + virtio_blk_zoned_characteristics.max_open_zones$offset()),
                r.u32(virtio_blk_zoned_characteristics.max_active_zones$layout(),
                        base + virtio_blk_zoned_characteristics.max_active_zones$offset()),
                r.u32(virtio_blk_zoned_characteristics.max_append_sectors$layout(),
                        base + virtio_blk_zoned_characteristics.max_append_sectors$offset()),
                r.u32(virtio_blk_zoned_characteristics.write_granularity$layout(),
                        base + virtio_blk_zoned_characteristics.write_granularity$offset()),
                r.u8(virtio_blk_zoned_characteristics.model$layout(), base + virtio_blk_zoned_characteristics.model$offset()));
    }

    private static <T> DecodeResult<T> checkLength(byte[] bytes, long needed, String field) {
        if (bytes == null) {
            return DecodeResult.failed(new ConfigParseError(ConfigParseError.Kind.MISSING, null, (int) needed, 0, "no config bytes"));
        }
        if (bytes.length < needed) {
            return DecodeResult.failed(new ConfigParseError(ConfigParseError.Kind.TOO_SHORT, field, (int) needed, bytes.length,
                    "config space of " + bytes.length + " bytes cannot hold " + field + " (needs " + needed + ")"));
        }
        if (bytes.length > MAX_CONFIG_BYTES) {
            return DecodeResult.failed(new ConfigParseError(ConfigParseError.Kind.TOO_LONG, null, MAX_CONFIG_BYTES, bytes.length,
                    "config space of " + bytes.length + " bytes exceeds " + MAX_CONFIG_BYTES));
        }
        return null;
    }

    /** Reads little-endian, unaligned fields that fit in the given bytes; absent fields are null. */
    private static final class Reader {
        private final MemorySegment seg;

        Reader(byte[] bytes) {
            this.seg = MemorySegment.ofArray(bytes);
        }

        boolean has(long offset, long size) {
            return offset + size <= seg.byteSize();
        }

        Integer u8(ValueLayout.OfByte l, long offset) {
            return has(offset, 1) ? Byte.toUnsignedInt(seg.get(l, offset)) : null;
        }

        Integer u16(ValueLayout.OfShort l, long offset) {
            return has(offset, 2) ? Short.toUnsignedInt(seg.get(le(l), offset)) : null;
        }

        Long u32(ValueLayout.OfInt l, long offset) {
            return has(offset, 4) ? Integer.toUnsignedLong(seg.get(le(l), offset)) : null;
        }

        Long u64(ValueLayout.OfLong l, long offset) {
            return has(offset, 8) ? seg.get(le(l), offset) : null;
        }

        private static <L extends ValueLayout> L le(L l) {
            @SuppressWarnings("unchecked")
            L out = (L) l.withByteAlignment(1).withOrder(ByteOrder.LITTLE_ENDIAN);
            return out;
        }
    }
}
