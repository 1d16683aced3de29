package org.vdpactl.fake.device;

import java.io.ByteArrayOutputStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.vdpactl.fake.mem.AddressSpace;
import org.vdpactl.fake.model.MapEntry;
import org.vdpactl.ffi.gen.vhost.vhost_h;
import org.vdpactl.ffi.gen.vhost.vring_avail;
import org.vdpactl.ffi.gen.vhost.vring_desc;
import org.vdpactl.ffi.gen.vhost.vring_used;
import org.vdpactl.ffi.gen.vhost.vring_used_elem;

/**
 * A device's view of split virtqueues in guest memory, as vringh_*_iotlb has it: IOVAs are
 * translated through the device's map of one ASID (or the identity map where the device starts
 * with one), then read and written in the owner's address space (vhost-vdpa's bind_mm).
 * A translation or access failure is a {@link Fault}, like vringh's -EFAULT.
 */
final class RingMemory {
    private static final long DESC_SIZE = vring_desc.layout().byteSize();
    private static final long AVAIL_ENTRY = vring_avail.ring$layout().elementLayout().byteSize();
    private static final long USED_ENTRY = vring_used_elem.layout().byteSize();
    private static final int F_NEXT = vhost_h.VRING_DESC_F_NEXT();
    private static final int F_WRITE = vhost_h.VRING_DESC_F_WRITE();
    private static final int F_INDIRECT = vhost_h.VRING_DESC_F_INDIRECT();

    private final AddressSpace mm;
    private final List<MapEntry> map;
    private final boolean identity;

    /** A translation fault or a malformed chain: the ring or a buffer is not reachable. */
    static final class Fault extends RuntimeException {
        Fault(String message) {
            super(message, null, false, false);
        }
    }

    /** One descriptor of a chain: a guest buffer, device-writable or device-readable. */
    record Buffer(long iova, int length, boolean deviceWritable) {
    }

    RingMemory(AddressSpace mm, List<MapEntry> map, boolean identity) {
        this.mm = mm;
        this.map = map;
        this.identity = identity;
    }

    /** The avail ring's idx. */
    int availIdx(FakeVdpaDevice.DeviceVq vq) {
        return u16(vq.driverArea + vring_avail.idx$offset());
    }

    /** The avail ring's flags (VRING_AVAIL_F_NO_INTERRUPT). */
    int availFlags(FakeVdpaDevice.DeviceVq vq) {
        return u16(vq.driverArea + vring_avail.flags$offset());
    }

    /** Whether the driver made a chain available beyond the device's last avail index. */
    boolean hasAvailable(FakeVdpaDevice.DeviceVq vq) {
        return (vq.state & 0xFFFF) != availIdx(vq);
    }

    /** __vringh_get_head: the next available head; consumes it (last_avail_idx++). */
    int takeHead(FakeVdpaDevice.DeviceVq vq) {
        int slot = (int) ((vq.state & 0xFFFF) % vq.num);
        int head = u16(vq.driverArea + vring_avail.ring$offset() + slot * AVAIL_ENTRY);
        if (head >= vq.num) {
            throw new Fault("the guest says head " + head + " >= " + vq.num + " is available");
        }
        vq.state = (vq.state + 1) & 0xFFFF;
        return head;
    }

    /** The descriptor chain from {@code head}; a loop, an index outside the ring or an indirect table stop it. */
    List<Buffer> chain(FakeVdpaDevice.DeviceVq vq, int head) {
        List<Buffer> out = new ArrayList<>();
        int i = head;
        for (int n = 0; ; n++) {
            if (n >= vq.num || i >= vq.num) {
                throw new Fault("descriptor chain from " + head + " is longer than the ring or leaves it");
            }
            MemorySegment d = read(vq.descArea + i * DESC_SIZE, DESC_SIZE);
            int flags = Short.toUnsignedInt(vring_desc.flags(d));
            if ((flags & F_INDIRECT) != 0) {
                throw new Fault("indirect descriptors are not modelled");
            }
            out.add(new Buffer(vring_desc.addr(d), vring_desc.len(d), (flags & F_WRITE) != 0));
            if ((flags & F_NEXT) == 0) {
                return out;
            }
            i = Short.toUnsignedInt(vring_desc.next(d));
        }
    }

    /** vringh_complete: the used element at the device's used index, then used->idx. */
    void publishUsed(FakeVdpaDevice.DeviceVq vq, int head, int len) {
        MemorySegment e = MemorySegment.ofArray(new long[1]);
        vring_used_elem.id(e, head);
        vring_used_elem.len(e, len);
        long slot = (vq.usedIdx & 0xFFFF) % vq.num;
        write(vq.deviceArea + vring_used.ring$offset() + slot * USED_ENTRY, e.toArray(ValueLayout.JAVA_BYTE));
        vq.usedIdx = (vq.usedIdx + 1) & 0xFFFF;
        MemorySegment idx = MemorySegment.ofArray(new short[] {(short) vq.usedIdx});
        write(vq.deviceArea + vring_used.idx$offset(), idx.toArray(ValueLayout.JAVA_BYTE));
    }

    /** vringh_iov_pull: up to {@code limit} bytes of the chain's device-readable buffers, in order. */
    byte[] pull(List<Buffer> chain, int limit) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Buffer b : chain) {
            if (b.deviceWritable() || out.size() >= limit) {
                continue;
            }
            int n = Math.min(b.length(), limit - out.size());
            out.writeBytes(read(b.iova(), n).toArray(ValueLayout.JAVA_BYTE));
        }
        return out.toByteArray();
    }

    /** vringh_iov_push: as much of {@code data} as the chain's device-writable buffers hold; returns the bytes written. */
    int push(List<Buffer> chain, byte[] data) {
        int done = 0;
        for (Buffer b : chain) {
            if (!b.deviceWritable() || done >= data.length) {
                continue;
            }
            int n = Math.min(b.length(), data.length - done);
            write(b.iova(), Arrays.copyOfRange(data, done, done + n));
            done += n;
        }
        return done;
    }

    int u16(long iova) {
        return Short.toUnsignedInt(read(iova, 2).get(ValueLayout.JAVA_SHORT, 0));
    }

    MemorySegment read(long iova, long length) {
        byte[] b = new byte[(int) length];
        if (!mm.read(translate(iova, length), b)) {
            throw new Fault(String.format("IOVA %#x+%d is not in the owner's memory", iova, length));
        }
        MemorySegment aligned = MemorySegment.ofArray(new long[(int) ((length + 7) / 8)]).asSlice(0, length);
        aligned.copyFrom(MemorySegment.ofArray(b));
        return aligned;
    }

    void write(long iova, byte[] data) {
        if (!mm.write(translate(iova, data.length), data)) {
            throw new Fault(String.format("IOVA %#x+%d is not in the owner's memory", iova, data.length));
        }
    }

    /** IOVA → user address through the device's map of the ASID. */
    private long translate(long iova, long length) {
        if (map == null) {
            if (identity) {
                return iova;
            }
            throw new Fault("no translation for the virtqueue's address space");
        }
        for (MapEntry e : map) {
            if (Long.compareUnsigned(iova, e.iova()) >= 0 && Long.compareUnsigned(iova - e.iova(), e.size()) < 0) {
                if (Long.compareUnsigned(length, e.size() - (iova - e.iova())) > 0) {
                    throw new Fault(String.format("IOVA %#x+%d crosses an IOTLB entry", iova, length));
                }
                return e.uaddr() + (iova - e.iova());
            }
        }
        throw new Fault(String.format("IOVA %#x is not mapped", iova));
    }
}
