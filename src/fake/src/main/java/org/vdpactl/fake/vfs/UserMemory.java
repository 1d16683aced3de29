package org.vdpactl.fake.vfs;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.vdpactl.fake.errno.KernelError;
import org.vdpactl.sys.Errno;

/**
 * copy_from_user / copy_to_user for the fake kernel. A user pointer is a {@link MemorySegment}; a
 * NULL segment, or one shorter than what the kernel touches, faults (EFAULT), as does writing into a
 * read-only segment. Copies come back 8-byte aligned so the generated struct accessors can read
 * them whatever the caller's segment was (heap arrays, unaligned slices).
 */
public final class UserMemory {
    private UserMemory() {
    }

    /** Copies {@code length} bytes at {@code offset} of a user buffer into kernel memory, or EFAULT. */
    public static MemorySegment copyIn(MemorySegment user, long offset, long length) {
        check(user, offset, length, "read");
        MemorySegment copy = MemorySegment.ofArray(new long[(int) ((length + 7) / 8)]).asSlice(0, length);
        MemorySegment.copy(user, offset, copy, 0, length);
        return copy;
    }

    /** Copies kernel data to a user buffer at {@code offset}, or EFAULT. */
    public static void copyOut(MemorySegment user, long offset, MemorySegment data) {
        checkWritable(user, offset, data.byteSize());
        MemorySegment.copy(data, 0, user, offset, data.byteSize());
    }

    public static void copyOut(MemorySegment user, long offset, byte[] data) {
        copyOut(user, offset, MemorySegment.ofArray(data));
    }

    /*
     * The scalar accessors read and write the user segment in place after the same checks as a copy
     * (get_user/put_user): the values are the copy's, without a kernel buffer per call, which every
     * vhost ioctl of a rehearsal made (an unaligned access because user pointers need not be aligned).
     */

    /** get_user of a u32 at {@code arg}. */
    public static int readInt(MemorySegment user, long offset) {
        check(user, offset, 4, "read");
        return user.get(ValueLayout.JAVA_INT_UNALIGNED, offset);
    }

    public static long readLong(MemorySegment user, long offset) {
        check(user, offset, 8, "read");
        return user.get(ValueLayout.JAVA_LONG_UNALIGNED, offset);
    }

    public static byte readByte(MemorySegment user, long offset) {
        check(user, offset, 1, "read");
        return user.get(ValueLayout.JAVA_BYTE, offset);
    }

    public static void writeInt(MemorySegment user, long offset, int value) {
        checkWritable(user, offset, 4);
        user.set(ValueLayout.JAVA_INT_UNALIGNED, offset, value);
    }

    public static void writeLong(MemorySegment user, long offset, long value) {
        checkWritable(user, offset, 8);
        user.set(ValueLayout.JAVA_LONG_UNALIGNED, offset, value);
    }

    public static void writeShort(MemorySegment user, long offset, short value) {
        checkWritable(user, offset, 2);
        user.set(ValueLayout.JAVA_SHORT_UNALIGNED, offset, value);
    }

    public static void writeByte(MemorySegment user, long offset, byte value) {
        checkWritable(user, offset, 1);
        user.set(ValueLayout.JAVA_BYTE, offset, value);
    }

    private static void checkWritable(MemorySegment user, long offset, long length) {
        check(user, offset, length, "write");
        if (user.isReadOnly()) {
            throw KernelError.of(Errno.EFAULT, "user buffer is read-only");
        }
    }

    /** A zeroed kernel buffer of a struct's size with the same alignment guarantees as {@link #copyIn}. */
    public static MemorySegment kernelBuffer(long length) {
        return MemorySegment.ofArray(new long[(int) ((length + 7) / 8)]).asSlice(0, length);
    }

    private static void check(MemorySegment user, long offset, long length, String what) {
        if (user == null || user.address() == 0 && user.byteSize() == 0) {
            throw KernelError.of(Errno.EFAULT, "NULL user pointer (" + what + " " + length + " bytes)");
        }
        if (offset < 0 || length < 0 || user.byteSize() - offset < length) {
            throw KernelError.of(Errno.EFAULT, String.format("user buffer of %d bytes too short to %s %d bytes at %d",
                    user.byteSize(), what, length, offset));
        }
    }
}
