package org.vdpactl.vhost;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.vdpactl.ffi.gen.vhost.vhost_h;
import org.vdpactl.ffi.gen.vhost.vhost_iotlb_msg;
import org.vdpactl.ffi.gen.vhost.vhost_msg;
import org.vdpactl.ffi.gen.vhost.vhost_msg_v2;

/**
 * Encodes and decodes IOTLB messages ({@code struct vhost_msg} V1 / {@code struct vhost_msg_v2},
 * both 72 bytes on LP64) with the generated layouts. {@link #encode} writes into a caller-owned
 * segment and allocates nothing, so the hot path reuses one native buffer for every message.
 */
public final class IotlbCodec {
    /** Top-level {@code VHOST_IOTLB_MSG}: no ASID on the wire. */
    public static final int V1 = vhost_h.VHOST_IOTLB_MSG();
    /** Top-level {@code VHOST_IOTLB_MSG_V2}. */
    public static final int V2 = vhost_h.VHOST_IOTLB_MSG_V2();
    /** sizeof(struct vhost_msg_v2) = what a successful write returns. */
    public static final long MESSAGE_SIZE = vhost_msg_v2.layout().byteSize();

    private static final long BODY_V2 = vhost_msg_v2.iotlb$offset();
    private static final long BODY_V1 = vhost_msg.iotlb$offset();
    /*
     * The fields' places, from the generated layouts, for the encoder's stores. The encoder stores through the
     * *_UNALIGNED layouts: an aligned layout checks the address's alignment at every store, which the JIT cannot fold
     * for a buffer whose address it does not know. The stores are right at any address, and the kernel asks no
     * alignment of the message: it reads the type, the ASID and the body from the write's buffer as a stream
     * (docs/spec/kernel-abi.md §5.1).
     */
    private static final long TYPE_V1 = vhost_msg.type$offset();
    private static final long TYPE_V2 = vhost_msg_v2.type$offset();
    private static final long ASID = vhost_msg_v2.asid$offset();
    private static final long IOVA = vhost_iotlb_msg.iova$offset();
    private static final long SIZE = vhost_iotlb_msg.size$offset();
    private static final long UADDR = vhost_iotlb_msg.uaddr$offset();
    private static final long PERM = vhost_iotlb_msg.perm$offset();
    private static final long IOTLB_TYPE = vhost_iotlb_msg.type$offset();

    private IotlbCodec() {
    }

    /**
     * Writes one whole 72-byte message (zero padding included) into {@code dst[0..72)}.
     * V1 messages carry no ASID; {@code asid} is then ignored.
     */
    public static void encode(MemorySegment dst, int version, int asid, int type, long iova, long size, long uaddr, int perm) {
        // A slice of constant size lets the JIT fold the bounds checks of the stores below into this one, and
        // zeroing in 8-byte stores avoids fill()'s call into a native stub for 72 bytes: on the hot path
        // (one message per write(2)) both showed in the profile (docs/benchmarks.md, section 2).
        MemorySegment msg = dst.asSlice(0, MESSAGE_SIZE);
        for (long offset = 0; offset < MESSAGE_SIZE; offset += Long.BYTES) {
            msg.set(ValueLayout.JAVA_LONG_UNALIGNED, offset, 0L);
        }
        long body;
        if (version == V1) {
            msg.set(ValueLayout.JAVA_INT_UNALIGNED, TYPE_V1, version);
            body = BODY_V1;
        } else {
            msg.set(ValueLayout.JAVA_INT_UNALIGNED, TYPE_V2, version);
            msg.set(ValueLayout.JAVA_INT_UNALIGNED, ASID, asid);
            body = BODY_V2;
        }
        msg.set(ValueLayout.JAVA_LONG_UNALIGNED, body + IOVA, iova);
        msg.set(ValueLayout.JAVA_LONG_UNALIGNED, body + SIZE, size);
        msg.set(ValueLayout.JAVA_LONG_UNALIGNED, body + UADDR, uaddr);
        msg.set(ValueLayout.JAVA_BYTE, body + PERM, (byte) perm);
        msg.set(ValueLayout.JAVA_BYTE, body + IOTLB_TYPE, (byte) type);
    }

    public static void encode(MemorySegment dst, IotlbMessage m) {
        encode(dst, m.version(), m.asid(), m.type(), m.iova(), m.size(), m.uaddr(), m.perm());
    }

    /**
     * Reads a message as the kernel parses it: the top-level type decides whether the 4 bytes at
     * offset 4 are an ASID (V2) or padding (V1, asid reported as 0).
     *
     * @throws IllegalArgumentException when the segment is shorter than 72 bytes
     */
    public static IotlbMessage decode(MemorySegment src) {
        if (src.byteSize() < MESSAGE_SIZE) {
            throw new IllegalArgumentException("an IOTLB message is " + MESSAGE_SIZE + " bytes, got " + src.byteSize());
        }
        int version = vhost_msg_v2.type(src);
        int asid = version == V1 ? 0 : vhost_msg_v2.asid(src);
        MemorySegment b = version == V1 ? vhost_msg.iotlb(src) : vhost_msg_v2.iotlb(src);
        return new IotlbMessage(version, asid, Byte.toUnsignedInt(vhost_iotlb_msg.type(b)), vhost_iotlb_msg.iova(b),
                vhost_iotlb_msg.size(b), vhost_iotlb_msg.uaddr(b), Byte.toUnsignedInt(vhost_iotlb_msg.perm(b)));
    }

    /** A fresh 72-byte heap copy of the encoded message (tests, logging). */
    public static byte[] toBytes(IotlbMessage m) {
        // heap byte[] segments are only byte-aligned; the generated accessors need aligned longs
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment tmp = arena.allocate(vhost_msg_v2.layout());
            encode(tmp, m);
            return tmp.toArray(ValueLayout.JAVA_BYTE);
        }
    }

    /** Decodes the first 72 bytes produced by {@link #toBytes} or captured from a write. */
    public static IotlbMessage fromBytes(byte[] bytes) {
        if (bytes.length < MESSAGE_SIZE) {
            throw new IllegalArgumentException("an IOTLB message is " + MESSAGE_SIZE + " bytes, got " + bytes.length);
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment tmp = arena.allocate(vhost_msg_v2.layout());
            MemorySegment.copy(bytes, 0, tmp, ValueLayout.JAVA_BYTE, 0, (int) MESSAGE_SIZE);
            return decode(tmp);
        }
    }
}
