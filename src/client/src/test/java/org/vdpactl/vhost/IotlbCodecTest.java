package org.vdpactl.vhost;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.Arena;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import org.junit.jupiter.api.Test;

/** The 72-byte wire format of kernel-abi.md §2.1 / §5.1. */
class IotlbCodecTest {

    @Test
    void v2UpdateBytesAreTheKernelStruct() {
        byte[] b = IotlbCodec.toBytes(IotlbMessage.update(1, 0x1000, 0x2000, 0x7f00_0000_1000L, IotlbPermission.RW));
        assertEquals(72, b.length);
        ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(2, bb.getInt(0)); // VHOST_IOTLB_MSG_V2
        assertEquals(1, bb.getInt(4)); // asid
        assertEquals(0x1000, bb.getLong(8)); // iova
        assertEquals(0x2000, bb.getLong(16)); // size
        assertEquals(0x7f00_0000_1000L, bb.getLong(24)); // uaddr
        assertEquals(3, b[32]); // perm RW
        assertEquals(2, b[33]); // VHOST_IOTLB_UPDATE
        for (int i = 34; i < 72; i++) {
            assertEquals(0, b[i], "padding byte " + i);
        }
    }

    @Test
    void v1HasNoAsidOnTheWire() {
        byte[] b = IotlbCodec.toBytes(IotlbMessage.invalidate(5, 0x3000, 0x1000).asV1());
        ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(1, bb.getInt(0));
        assertEquals(0, bb.getInt(4));
        assertEquals(3, b[33]); // INVALIDATE
        assertEquals(0, IotlbCodec.fromBytes(b).asid());
    }

    @Test
    void batchMessagesCarryOnlyTypeAndAsid() {
        byte[] begin = IotlbCodec.toBytes(IotlbMessage.batchBegin(1));
        byte[] expected = new byte[72];
        expected[0] = 2;
        expected[4] = 1;
        expected[33] = 5;
        assertArrayEquals(expected, begin);
        assertEquals(6, IotlbCodec.toBytes(IotlbMessage.batchEnd(0))[33]);
    }

    @Test
    void decodeRefusesShortInput() {
        assertThrows(IllegalArgumentException.class, () -> IotlbCodec.fromBytes(new byte[40]));
    }

    @Test
    void encodeOverwritesEveryByteOfAReusedBuffer() {
        try (Arena a = Arena.ofConfined()) {
            var seg = a.allocate(72, 8);
            seg.fill((byte) 0x5A);
            IotlbCodec.encode(seg, IotlbMessage.batchEnd(0));
            byte[] expected = new byte[72];
            expected[0] = 2;
            expected[33] = 6;
            assertArrayEquals(expected, seg.toArray(ValueLayout.JAVA_BYTE));
        }
    }

    /** V1 has padding where V2 has the ASID: an ASID given for V1 is not written, and the padding is zeroed. */
    @Test
    void v1WritesNoAsidGivenAndZeroesItsPaddingInAReusedBuffer() {
        try (Arena a = Arena.ofConfined()) {
            var seg = a.allocate(72, 8);
            seg.fill((byte) 0x5A);
            IotlbCodec.encode(seg, IotlbCodec.V1, 7, 2, 0x1000, 0x2000, 0x30000, 3);
            byte[] expected = new byte[72];
            expected[0] = 1;
            expected[9] = 0x10;
            expected[17] = 0x20;
            expected[26] = 0x03;
            expected[32] = 3;
            expected[33] = 2;
            assertArrayEquals(expected, seg.toArray(ValueLayout.JAVA_BYTE));
        }
    }

    @Test
    void toStringIsReadable() {
        assertEquals("UPDATE asid=0 iova=0x1000 size=0x2000 uaddr=0x10000 perm=RO",
                IotlbMessage.update(0, 0x1000, 0x2000, 0x10000, IotlbPermission.RO).toString());
        assertEquals("BATCH_BEGIN asid=1", IotlbMessage.batchBegin(1).toString());
    }
}
