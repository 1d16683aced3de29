package org.vdpactl.vhost;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

/**
 * The split-ring writer lays descriptors and indices out as virtio 1.x §2.7 fixes them (the device
 * side reads raw offsets here, not the generated layouts the writer uses).
 */
class SplitRingTest {
    private static final ValueLayout.OfShort LE_SHORT = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfInt LE_INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong LE_LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    @Test
    void descriptorsAreSixteenBytesOfAddrLenFlagsNext() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment desc = arena.allocate(4096);
            SplitRing ring = new SplitRing(desc, arena.allocate(4096), arena.allocate(4096), 8);
            ring.descriptor(2, 0x1234_5678_9abcL, 64, SplitRing.DESC_F_NEXT | SplitRing.DESC_F_WRITE, 3);
            assertEquals(0x1234_5678_9abcL, desc.get(LE_LONG, 32));
            assertEquals(64, desc.get(LE_INT, 40));
            assertEquals(1 | 2, desc.get(LE_SHORT, 44), "VRING_DESC_F_NEXT = 1, VRING_DESC_F_WRITE = 2");
            assertEquals(3, desc.get(LE_SHORT, 46));
            assertEquals(128, SplitRing.descBytes(8));
            assertThrows(IndexOutOfBoundsException.class, () -> ring.descriptor(8, 0, 0, 0, 0));
        }
    }

    @Test
    void publishWritesTheRingEntryThenTheIndexAndWrapsAtTheQueueSize() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment avail = arena.allocate(4096);
            MemorySegment used = arena.allocate(4096);
            SplitRing ring = new SplitRing(arena.allocate(4096), avail, used, 2);
            assertEquals(1, ring.publish(5));
            assertEquals(2, ring.publish(6));
            assertEquals(3, ring.publish(7));
            // flags at 0, idx at 2, ring[] from 4: entry 2 wrapped onto slot 0
            assertEquals(3, avail.get(LE_SHORT, 2));
            assertArrayEquals(new short[] {7, 6}, new short[] {avail.get(LE_SHORT, 4), avail.get(LE_SHORT, 6)});
            assertEquals(3, ring.availIndex());
            assertFalse(ring.allUsed());
            used.set(LE_SHORT, 2, (short) 3); // the device's used idx
            assertEquals(3, ring.usedIndex());
            assertTrue(ring.allUsed());
        }
    }

    @Test
    void refusesSizesThatAreNoPowerOfTwoAndAreasTooSmall() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment page = arena.allocate(4096);
            assertThrows(IllegalArgumentException.class, () -> new SplitRing(page, page, page, 3));
            MemorySegment small = arena.allocate(8);
            assertThrows(IllegalArgumentException.class, () -> new SplitRing(page, small, page, 8));
        }
    }

    @Test
    void queuePairsSetIsClassMqCommandZeroWithALittleEndianCount() {
        NetControlCommand c = NetControlCommand.setQueuePairs(0x0102);
        assertEquals(4, c.cls(), "VIRTIO_NET_CTRL_MQ");
        assertEquals(0, c.cmd(), "VIRTIO_NET_CTRL_MQ_VQ_PAIRS_SET");
        assertArrayEquals(new byte[] {2, 1}, c.data());
        assertEquals("VIRTIO_NET_ERR", NetControlCommand.describeAck(1));
        assertEquals(0, NetControlCommand.ACK_OK);
    }
}
