package org.vdpactl.vhost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

import org.junit.jupiter.api.Test;

class VirtioConfigDecoderTest {

    /** What vdpa_sim_net's 24-byte config reads like with MAC 02:00:00:00:00:01 (verified-device.md). */
    static byte[] vdpaSimNet() {
        ByteBuffer b = ByteBuffer.allocate(24).order(ByteOrder.LITTLE_ENDIAN);
        b.put(new byte[] {2, 0, 0, 0, 0, 1});
        b.putShort((short) 1); // status LINK_UP
        b.putShort((short) 0); // max_virtqueue_pairs
        b.putShort((short) 1500); // mtu
        return b.array();
    }

    @Test
    void decodesVdpaSimNet() {
        NetConfig c = VirtioConfigDecoder.net(vdpaSimNet()).orElseThrow();
        assertEquals("02:00:00:00:00:01", c.mac());
        assertEquals(1, c.status());
        assertTrue(c.linkUp());
        assertEquals(0, c.maxVirtqueuePairs());
        assertEquals(1500, c.mtu());
        assertEquals(0L, c.speed());
        assertEquals("half", c.duplexName());
        assertEquals(24, c.length());
    }

    @Test
    void readsFieldsLittleEndianWhateverTheHost() {
        byte[] b = vdpaSimNet();
        b[12] = (byte) 0x10;
        b[13] = (byte) 0x27; // speed 10000
        b[16] = (byte) 0xFF;
        NetConfig c = VirtioConfigDecoder.net(b).orElseThrow();
        assertEquals(10000L, c.speed());
        assertEquals("unknown", c.duplexName());
    }

    @Test
    void shortNetConfigLeavesMissingFieldsNull() {
        NetConfig c = VirtioConfigDecoder.net(Arrays.copyOf(vdpaSimNet(), 8)).orElseThrow();
        assertEquals(1, c.status());
        assertNull(c.maxVirtqueuePairs());
        assertNull(c.mtu());
    }

    @Test
    void tooShortForAMacIsATypedError() {
        DecodeResult<NetConfig> r = VirtioConfigDecoder.net(new byte[5]);
        ConfigParseError e = r.failure().orElseThrow();
        assertEquals(ConfigParseError.Kind.TOO_SHORT, e.kind());
        assertEquals("mac", e.field());
        assertEquals(6, e.needed());
        assertEquals(5, e.actual());
        assertThrows(ConfigParseException.class, r::orElseThrow);
        assertEquals(ConfigParseError.Kind.MISSING, VirtioConfigDecoder.net(null).failure().orElseThrow().kind());
        assertEquals(ConfigParseError.Kind.TOO_LONG, VirtioConfigDecoder.blk(new byte[5000]).failure().orElseThrow().kind());
    }

    @Test
    void decodesABlkConfig() {
        ByteBuffer b = ByteBuffer.allocate(96).order(ByteOrder.LITTLE_ENDIAN);
        b.putLong(0, 0x40000L); // capacity: 128 MiB
        b.putInt(8, 4096); // size_max
        b.putInt(12, 126); // seg_max
        b.putShort(16, (short) 300); // cylinders
        b.put(18, (byte) 16); // heads
        b.put(19, (byte) 63); // sectors
        b.putInt(20, 512); // blk_size
        b.putShort(34, (short) 1); // num_queues
        b.putInt(36, 0x3FFF_FFFF); // max_discard_sectors
        b.put(56, (byte) 1); // write_zeroes_may_unmap
        b.putInt(72, 0x80); // zoned.zone_sectors
        b.put(92, (byte) 2); // zoned.model
        BlkConfig c = VirtioConfigDecoder.blk(b.array()).orElseThrow();
        assertEquals(0x40000L, c.capacity());
        assertEquals(128L << 20, c.capacityBytes());
        assertEquals(4096L, c.sizeMax());
        assertEquals(126L, c.segMax());
        assertEquals(new BlkConfig.Geometry(300, 16, 63), c.geometry());
        assertEquals(512L, c.blkSize());
        assertEquals(1, c.numQueues());
        assertEquals(0x3FFF_FFFFL, c.maxDiscardSectors());
        assertEquals(1, c.writeZeroesMayUnmap());
        assertNotNull(c.zoned());
        assertEquals(0x80L, c.zoned().zoneSectors());
        assertEquals(2, c.zoned().model());
    }

    @Test
    void shortBlkConfigStopsAtTheLastWholeField() {
        BlkConfig c = VirtioConfigDecoder.blk(new byte[19]).orElseThrow();
        assertEquals(0L, c.segMax());
        assertNull(c.geometry(), "geometry needs 4 bytes at 16");
        assertNull(c.zoned());
        assertEquals(ConfigParseError.Kind.TOO_SHORT, VirtioConfigDecoder.blk(new byte[7]).failure().orElseThrow().kind());
    }

    @Test
    void otherDeviceTypesStayRaw() {
        DeviceConfig c = VirtioConfigDecoder.decode(4, new byte[] {1, 2, (byte) 0xAB}).orElseThrow();
        assertEquals(new RawConfig(4, "0102ab"), c);
        assertEquals(3, c.length());
        assertTrue(VirtioConfigDecoder.decode(1, vdpaSimNet()).orElseThrow() instanceof NetConfig);
        assertTrue(VirtioConfigDecoder.decode(2, new byte[96]).orElseThrow() instanceof BlkConfig);
    }
}
