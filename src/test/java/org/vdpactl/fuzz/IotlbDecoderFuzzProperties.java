package org.vdpactl.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Tag;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.vdpactl.fake.FakeKernel;
import org.vdpactl.fake.FakeProcess;
import org.vdpactl.ffi.gen.libc.libc_h;
import org.vdpactl.sys.Errno;
import org.vdpactl.sys.SyscallException;
import org.vdpactl.vhost.IotlbCodec;
import org.vdpactl.vhost.IotlbMessage;

/**
 * Arbitrary bytes into both IOTLB decoders: the library's codec (a value or a typed error) and the
 * fake kernel's write(2) parser (72, EINVAL or EFAULT, exactly the kernel's three answers).
 * `scripts/test --long` runs these with a million inputs each.
 */
@Tag("fuzz")
class IotlbDecoderFuzzProperties {
    private static FakeKernel kernel;
    private static FakeProcess process;
    private static int fd;

    @BeforeContainer
    static void openDevice() {
        kernel = FakeKernel.builder().build();
        process = kernel.newProcess();
        fd = process.open("/dev/vhost-vdpa-0", libc_h.O_RDWR());
        process.ioctl(fd, org.vdpactl.vhost.VhostIoctl.SET_OWNER.code(), MemorySegment.NULL);
    }

    @AfterContainer
    static void closeDevice() {
        process.close();
        kernel.close();
    }

    @Property
    void codecDecodesAnyBytesOrRefusesTyped(@ForAll @Size(max = 100) byte[] bytes) {
        try {
            IotlbMessage m = IotlbCodec.fromBytes(bytes);
            assertTrue(bytes.length >= IotlbCodec.MESSAGE_SIZE);
            assertTrue(m.type() >= 0 && m.type() <= 255 && m.perm() >= 0 && m.perm() <= 255);
        } catch (IllegalArgumentException e) {
            assertTrue(bytes.length < IotlbCodec.MESSAGE_SIZE, e.getMessage());
        }
    }

    @Property
    void fakeKernelAnswersAnyWriteLikeTheKernel(@ForAll @Size(max = 100) byte[] bytes) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buf = arena.allocate(Math.max(1, bytes.length), 8).asSlice(0, bytes.length);
            MemorySegment.copy(bytes, 0, buf, ValueLayout.JAVA_BYTE, 0, bytes.length);
            try {
                assertEquals(72, process.write(fd, buf));
            } catch (SyscallException e) {
                assertTrue(e.errno() == Errno.EINVAL || e.errno() == Errno.EFAULT, e.getMessage());
            }
        }
    }
}
