package org.vdpactl.fuzz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tag;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import net.jqwik.api.statistics.Statistics;
import org.vdpactl.fake.FakeKernel;
import org.vdpactl.fake.FakeProcess;
import org.vdpactl.ffi.gen.libc.libc_h;
import org.vdpactl.sys.Errno;
import org.vdpactl.sys.SyscallException;
import org.vdpactl.vhost.IotlbCodec;
import org.vdpactl.vhost.IotlbMessage;
import org.vdpactl.vhost.VhostIoctl;

/**
 * Arbitrary writes into both IOTLB decoders: the library's codec and the fake kernel's write(2)
 * parser. Each answer is checked against the wire layout and the rules of vhost_chr_write_iter /
 * vhost_vdpa_process_iotlb_msg (docs/spec/kernel-abi.md §2.1, §5.1), not merely against the set of
 * possible answers. `scripts/test --long` runs these with a million inputs each.
 *
 * <p>The layout both messages share (V1's union is 8-byte aligned, so its body also starts at 8):
 * u32 type @0, u32 asid @4 (V2 only), u64 iova @8, u64 size @16, u64 uaddr @24, u8 perm @32,
 * u8 type @33, padding up to 72.
 */
@Tag("fuzz")
class IotlbDecoderFuzzProperties {
    private static final int V1 = 1;
    private static final int V2 = 2;
    private static final int UPDATE = 2;
    private static final int INVALIDATE = 3;
    private static final int BATCH_BEGIN = 5;
    private static final int BATCH_END = 6;
    /** sizeof(u32 type) + V1 hole or V2 asid + sizeof(struct vhost_iotlb_msg): what the kernel copies in. */
    private static final int KERNEL_READS = 8 + 32;

    private static FakeKernel kernel;
    private static FakeProcess process;
    private static int fd;

    /**
     * vdpa_sim_net's node, owned, IOTLB_ASID not acked (so the kernel never reads a V2 message's asid
     * field: every message is for address space 0), and address space 0 allocated by an empty batch.
     */
    @BeforeContainer
    static void openDevice() {
        kernel = FakeKernel.builder().build();
        process = kernel.newProcess();
        fd = process.open("/dev/vhost-vdpa-0", libc_h.O_RDWR());
        process.ioctl(fd, VhostIoctl.SET_OWNER.code(), MemorySegment.NULL);
        assertEquals(72, write(IotlbCodec.toBytes(IotlbMessage.batchBegin(0))));
        assertEquals(72, write(IotlbCodec.toBytes(IotlbMessage.batchEnd(0))));
    }

    @AfterContainer
    static void closeDevice() {
        process.close();
        kernel.close();
    }

    /**
     * What a VMM or a fuzzer writes: any length (often at the 4/40/72-byte boundaries, mostly long enough to parse), a top-level
     * type that is mostly V1 or V2, an IOTLB type that is mostly one vhost-vdpa handles, and often an
     * UPDATE of size 0; every other byte random.
     */
    @Provide
    Arbitrary<byte[]> writes() {
        Arbitrary<Integer> length = Arbitraries.frequencyOf(Tuple.of(1, Arbitraries.integers().between(0, 39)),
                Tuple.of(1, Arbitraries.of(0, 3, 4, 7, 8, 39, 40, 41, 71, 72, 73)),
                Tuple.of(3, Arbitraries.integers().between(40, 100)));
        Arbitrary<Integer> top = Arbitraries.frequencyOf(
                Tuple.of(3, Arbitraries.just(V1)), Tuple.of(3, Arbitraries.just(V2)), Tuple.of(1, Arbitraries.integers()));
        Arbitrary<Integer> type = Arbitraries.frequencyOf(
                Tuple.of(4, Arbitraries.of(UPDATE, INVALIDATE, BATCH_BEGIN, BATCH_END)),
                Tuple.of(1, Arbitraries.integers().between(0, 255)));
        return Combinators.combine(Arbitraries.bytes().array(byte[].class).ofSize(100), length, top, type,
                Arbitraries.of(false, false, true)).as((random, len, t, iotlbType, zeroSize) -> {
                    ByteBuffer b = ByteBuffer.wrap(random).order(ByteOrder.LITTLE_ENDIAN);
                    b.putInt(0, t);
                    b.put(33, (byte) (int) iotlbType);
                    if (zeroSize) {
                        b.putLong(16, 0);
                    }
                    return Arrays.copyOf(random, len);
                });
    }

    /**
     * The codec refuses fewer than 72 bytes, reads every field at its offset (little-endian, perm and
     * type unsigned, no asid for V1), ignores what follows byte 72, and encodes the message back to the
     * same bytes with only the padding (and V1's hole) zeroed.
     */
    @Property
    void codecReadsTheWireLayoutAndEncodesItBack(@ForAll("writes") byte[] bytes) {
        if (bytes.length < IotlbCodec.MESSAGE_SIZE) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> IotlbCodec.fromBytes(bytes));
            assertTrue(e.getMessage().endsWith("got " + bytes.length), e.getMessage());
            return;
        }
        IotlbMessage m = IotlbCodec.fromBytes(bytes);
        ByteBuffer le = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        int top = le.getInt(0);
        assertEquals(top, m.version());
        assertEquals(top == V1 ? 0 : le.getInt(4), m.asid(), "a V1 message has no asid on the wire");
        assertEquals(le.getLong(8), m.iova());
        assertEquals(le.getLong(16), m.size());
        assertEquals(le.getLong(24), m.uaddr());
        assertEquals(bytes[32] & 0xFF, m.perm());
        assertEquals(bytes[33] & 0xFF, m.type());

        byte[] canonical = Arrays.copyOf(bytes, (int) IotlbCodec.MESSAGE_SIZE);
        Arrays.fill(canonical, 34, canonical.length, (byte) 0);
        if (top == V1) {
            Arrays.fill(canonical, 4, 8, (byte) 0);
        }
        assertArrayEquals(canonical, IotlbCodec.toBytes(m));
    }

    /**
     * The fake kernel gives vhost_chr_write_iter's answer: EINVAL for fewer than 4 bytes, a top-level
     * type other than V1/V2, fewer than the 40 bytes it copies in, or an UPDATE of size 0; then EFAULT
     * for an IOTLB type vhost-vdpa does not handle; 72 (whatever the length written) for INVALIDATE and
     * the batch markers on the existing address space 0; 72 or EFAULT for an UPDATE, depending on what
     * is mapped at uaddr.
     */
    @Property
    void fakeKernelAnswersEachWriteAsTheKernelDoes(@ForAll("writes") byte[] bytes) {
        String answer;
        try {
            answer = String.valueOf(write(bytes));
        } catch (SyscallException e) {
            answer = Errno.name(e.errno());
        }
        Set<String> expected = expectedAnswers(bytes);
        String got = answer;
        assertTrue(expected.contains(got), () -> "expected " + expected + ", got " + got + " for " + bytes.length
                + " bytes " + HexFormat.of().formatHex(bytes));
        // the inputs reach every answer, so no rule goes unchecked
        Statistics.collect(got);
        Statistics.coverage(c -> {
            c.check("EINVAL").count(n -> n > 0);
            c.check("EFAULT").count(n -> n > 0);
            c.check("72").count(n -> n > 0);
        });
    }

    /** vhost_chr_write_iter + vhost_vdpa_process_iotlb_msg for an owner without IOTLB_ASID, AS 0 present. */
    private static Set<String> expectedAnswers(byte[] bytes) {
        ByteBuffer le = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        if (bytes.length < 4) {
            return Set.of("EINVAL");
        }
        int top = le.getInt(0);
        if ((top != V1 && top != V2) || bytes.length < KERNEL_READS) {
            return Set.of("EINVAL");
        }
        int type = bytes[33] & 0xFF;
        if (type == UPDATE && le.getLong(16) == 0) {
            return Set.of("EINVAL");
        }
        return switch (type) {
            case UPDATE -> Set.of("72", "EFAULT");
            case INVALIDATE, BATCH_BEGIN, BATCH_END -> Set.of("72");
            default -> Set.of("EFAULT");
        };
    }

    private static long write(byte[] bytes) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buf = arena.allocate(Math.max(1, bytes.length), 8).asSlice(0, bytes.length);
            MemorySegment.copy(bytes, 0, buf, ValueLayout.JAVA_BYTE, 0, bytes.length);
            return process.write(fd, buf);
        }
    }
}
