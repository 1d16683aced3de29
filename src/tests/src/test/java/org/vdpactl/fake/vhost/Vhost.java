package org.vdpactl.fake.vhost;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.vdpactl.fake.FakeProcess;
import org.vdpactl.ffi.gen.libc.libc_h;
import org.vdpactl.ffi.gen.vhost.vhost_h;
import org.vdpactl.ffi.gen.vhost.vhost_iotlb_msg;
import org.vdpactl.ffi.gen.vhost.vhost_msg_v2;
import org.vdpactl.ffi.gen.vhost.vhost_vdpa_config;
import org.vdpactl.ffi.gen.vhost.vhost_vring_addr;
import org.vdpactl.ffi.gen.vhost.vhost_vring_file;
import org.vdpactl.ffi.gen.vhost.vhost_vring_state;
import org.vdpactl.sys.SyscallException;
import org.vdpactl.vhost.VhostIoctl;

/** Test helper: one open vhost-vdpa fd of a fake process, with the ioctls spelled out. */
public final class Vhost implements AutoCloseable {
    public static final int UPDATE = vhost_h.VHOST_IOTLB_UPDATE();
    public static final int INVALIDATE = vhost_h.VHOST_IOTLB_INVALIDATE();
    public static final int BATCH_BEGIN = vhost_h.VHOST_IOTLB_BATCH_BEGIN();
    public static final int BATCH_END = vhost_h.VHOST_IOTLB_BATCH_END();
    public static final int V2 = vhost_h.VHOST_IOTLB_MSG_V2();
    public static final int RW = vhost_h.VHOST_ACCESS_RW();

    public final FakeProcess p;
    public final int fd;
    public final Arena arena = Arena.ofConfined();

    public Vhost(FakeProcess p, String node) {
        this.p = p;
        this.fd = p.open(node, libc_h.O_RDWR());
    }

    public int ioctl(VhostIoctl io, MemorySegment arg) {
        return p.ioctl(fd, io.code(), arg);
    }

    public void setOwner() {
        ioctl(VhostIoctl.SET_OWNER, MemorySegment.NULL);
    }

    public long getU64(VhostIoctl io) {
        MemorySegment s = arena.allocate(8);
        ioctl(io, s);
        return s.get(ValueLayout.JAVA_LONG, 0);
    }

    public int getU32(VhostIoctl io) {
        MemorySegment s = arena.allocate(4);
        ioctl(io, s);
        return s.get(ValueLayout.JAVA_INT, 0);
    }

    public int status() {
        MemorySegment s = arena.allocate(1);
        ioctl(VhostIoctl.VDPA_GET_STATUS, s);
        return s.get(ValueLayout.JAVA_BYTE, 0) & 0xFF;
    }

    public void setStatus(int status) {
        MemorySegment s = arena.allocate(1);
        s.set(ValueLayout.JAVA_BYTE, 0, (byte) status);
        ioctl(VhostIoctl.VDPA_SET_STATUS, s);
    }

    public void setU64(VhostIoctl io, long v) {
        MemorySegment s = arena.allocate(8);
        s.set(ValueLayout.JAVA_LONG, 0, v);
        ioctl(io, s);
    }

    public void setU32(VhostIoctl io, int v) {
        MemorySegment s = arena.allocate(4);
        s.set(ValueLayout.JAVA_INT, 0, v);
        ioctl(io, s);
    }

    public MemorySegment state(int index, int num) {
        MemorySegment s = vhost_vring_state.allocate(arena);
        vhost_vring_state.index(s, index);
        vhost_vring_state.num(s, num);
        return s;
    }

    public int vringState(VhostIoctl io, int index, int num) {
        MemorySegment s = state(index, num);
        ioctl(io, s);
        return vhost_vring_state.num(s);
    }

    public void vringFile(VhostIoctl io, int index, int efd) {
        MemorySegment s = vhost_vring_file.allocate(arena);
        vhost_vring_file.index(s, index);
        vhost_vring_file.fd(s, efd);
        ioctl(io, s);
    }

    public void vringAddr(int index, long desc, long avail, long used) {
        MemorySegment a = vhost_vring_addr.allocate(arena);
        vhost_vring_addr.index(a, index);
        vhost_vring_addr.desc_user_addr(a, desc);
        vhost_vring_addr.avail_user_addr(a, avail);
        vhost_vring_addr.used_user_addr(a, used);
        ioctl(VhostIoctl.SET_VRING_ADDR, a);
    }

    public byte[] config(int off, int len) {
        MemorySegment c = arena.allocate(vhost_vdpa_config.buf$offset() + len);
        vhost_vdpa_config.off(c, off);
        vhost_vdpa_config.len(c, len);
        ioctl(VhostIoctl.VDPA_GET_CONFIG, c);
        return c.asSlice(vhost_vdpa_config.buf$offset(), len).toArray(ValueLayout.JAVA_BYTE);
    }

    public static MemorySegment msg(Arena arena, int asid, int type, long iova, long size, long uaddr) {
        MemorySegment m = vhost_msg_v2.allocate(arena);
        vhost_msg_v2.type(m, V2);
        vhost_msg_v2.asid(m, asid);
        MemorySegment b = vhost_msg_v2.iotlb(m);
        vhost_iotlb_msg.type(b, (byte) type);
        vhost_iotlb_msg.iova(b, iova);
        vhost_iotlb_msg.size(b, size);
        vhost_iotlb_msg.uaddr(b, uaddr);
        vhost_iotlb_msg.perm(b, (byte) RW);
        return m;
    }

    public long iotlb(int asid, int type, long iova, long size, long uaddr) {
        return p.write(fd, msg(arena, asid, type, iova, size, uaddr));
    }

    /** The errno of a call, or 0 when it succeeded. */
    public static int errno(Runnable r) {
        try {
            r.run();
            return 0;
        } catch (SyscallException e) {
            return e.errno();
        }
    }

    @Override
    public void close() {
        try {
            p.close(fd);
        } finally {
            arena.close();
        }
    }
}
