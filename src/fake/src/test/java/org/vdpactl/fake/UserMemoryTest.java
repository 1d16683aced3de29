package org.vdpactl.fake;

import org.vdpactl.fake.vfs.UserMemory;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;
import org.vdpactl.fake.errno.KernelError;
import org.vdpactl.sys.Errno;

/** get_user/put_user of the fake: in-place scalar access with copy_from_user's faults. */
class UserMemoryTest {

    @Test
    void scalarsAreReadAndWrittenInPlaceAtUnalignedOffsetsInNativeOrder() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment user = a.allocate(16);
            UserMemory.writeInt(user, 1, 0x11223344);
            assertEquals(0x11223344, user.get(ValueLayout.JAVA_INT_UNALIGNED, 1));
            assertEquals(0x11223344, UserMemory.readInt(user, 1));
            UserMemory.writeLong(user, 5, -2L);
            assertEquals(-2L, UserMemory.readLong(user, 5));
            UserMemory.writeShort(user, 13, (short) 0x7eef);
            assertEquals((short) 0x7eef, user.get(ValueLayout.JAVA_SHORT_UNALIGNED, 13));
            UserMemory.writeByte(user, 15, (byte) 0x9c);
            assertEquals((byte) 0x9c, UserMemory.readByte(user, 15));
        }
    }

    @Test
    void aBufferTooShortReadOnlyOrNullFaults() {
        MemorySegment three = MemorySegment.ofArray(new byte[3]);
        assertEquals(Errno.EFAULT, assertThrows(KernelError.class, () -> UserMemory.readInt(three, 0)).errno());
        assertEquals(Errno.EFAULT, assertThrows(KernelError.class, () -> UserMemory.readByte(three, 3)).errno());
        assertEquals(Errno.EFAULT, assertThrows(KernelError.class, () -> UserMemory.writeShort(three, 2, (short) 1)).errno());
        MemorySegment readOnly = MemorySegment.ofArray(new long[1]).asReadOnly();
        assertEquals(Errno.EFAULT, assertThrows(KernelError.class, () -> UserMemory.writeLong(readOnly, 0, 1)).errno());
        assertEquals(0L, UserMemory.readLong(readOnly, 0));
        assertEquals(Errno.EFAULT, assertThrows(KernelError.class, () -> UserMemory.readInt(MemorySegment.NULL, 0)).errno());
    }
}
