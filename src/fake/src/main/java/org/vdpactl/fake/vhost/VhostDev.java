package org.vdpactl.fake.vhost;

import java.lang.foreign.MemorySegment;
import java.util.function.IntConsumer;

import org.vdpactl.fake.inside.FakeInside;
import org.vdpactl.abi.UapiIoctl;
import org.vdpactl.fake.vfs.EventFdFile;
import org.vdpactl.fake.FakeProcess;
import org.vdpactl.fake.vfs.UserMemory;
import org.vdpactl.fake.errno.KernelError;
import org.vdpactl.ffi.gen.vhost.vhost_h;
import org.vdpactl.ffi.gen.vhost.vhost_iotlb_msg;
import org.vdpactl.ffi.gen.vhost.vhost_memory;
import org.vdpactl.ffi.gen.vhost.vhost_memory_region;
import org.vdpactl.ffi.gen.vhost.vhost_msg_v2;
import org.vdpactl.ffi.gen.vhost.vhost_vring_addr;
import org.vdpactl.ffi.gen.vhost.vhost_vring_file;
import org.vdpactl.ffi.gen.vhost.vhost_vring_state;
import org.vdpactl.sys.Errno;

/**
 * The generic vhost device under vhost-vdpa, the part of drivers/vhost/vhost.c it uses:
 * {@code struct vhost_dev} (owner, virtqueues, fork-owner mode), vhost_dev_ioctl (owner, fork
 * owner, memory table), vhost_vring_ioctl (the vhost copy of each virtqueue: num, addresses,
 * base, kick/call/err eventfds, busy-loop timeout) and vhost_chr_write_iter's parsing of IOTLB
 * messages. What the vdpa driver does around these calls, with the device's ops, is
 * {@link VhostVdpa} (drivers/vhost/vdpa.c).
 *
 * <p>Every method runs under the device mutex, held by {@link VhostVdpa}'s callers.
 */
final class VhostDev {
    /** vhost's max_mem_regions default. */
    static final int MAX_MEM_REGIONS = 64;
    /** sizeof(struct vhost_msg) == sizeof(struct vhost_msg_v2): what a write of one message returns. */
    static final long IOTLB_MSG_SIZE = vhost_msg_v2.layout().byteSize();
    private static final long BODY_OFFSET = vhost_msg_v2.iotlb$offset();
    private static final long BODY_SIZE = vhost_iotlb_msg.layout().byteSize();
    private static final int UPDATE = vhost_h.VHOST_IOTLB_UPDATE();
    private static final long STATE_SIZE = vhost_vring_state.layout().byteSize();
    private static final long FILE_SIZE = vhost_vring_file.layout().byteSize();
    private static final long MEMORY_HEADER = vhost_memory.regions$offset();

    private FakeProcess owner;
    private VhostVq[] vqs;
    private int forkOwner = vhost_h.VHOST_FORK_OWNER_TASK();
    /** The driver's handle_kick of every vq (vhost-vdpa: the device's kick_vq). */
    private IntConsumer handleKick;

    /** vhost_dev_init: {@code nvqs} fresh virtqueues, no owner, the default fork-owner mode. */
    void init(int nvqs, IntConsumer handleKick) {
        this.handleKick = handleKick;
        vqs = new VhostVq[nvqs];
        for (int i = 0; i < vqs.length; i++) {
            vqs[i] = new VhostVq();
        }
        owner = null;
        forkOwner = vhost_h.VHOST_FORK_OWNER_TASK();
    }

    /** vhost_dev_stop: no kick reaches the driver any more. */
    void stop() {
        for (VhostVq vq : vqs) {
            vq.stopKick();
        }
    }

    /** vhost_dev_cleanup: the virtqueues and the owner go. */
    void cleanup() {
        vqs = null;
        owner = null;
    }

    /** True between {@link #init} and {@link #cleanup}. */
    boolean initialized() {
        return vqs != null;
    }

    /** The current owner process, or null. */
    FakeProcess owner() {
        return owner;
    }

    boolean ownedBy(FakeProcess caller) {
        return owner == caller;
    }

    VhostVq vq(int idx) {
        return vqs[idx];
    }

    // ------------------------------------------------------------------ vhost_dev_ioctl

    /**
     * vhost_dev_ioctl: true when the request was one of the device-wide ones; false (its
     * -ENOIOCTLCMD) sends an owner's request on to the vring ioctls. A caller that is not the
     * owner gets EPERM for everything but the owner requests.
     */
    boolean ioctl(FakeProcess caller, UapiIoctl io, MemorySegment arg) {
        if (io == UapiIoctl.VHOST_SET_OWNER) {
            if (owner != null) {
                throw KernelError.of(Errno.EBUSY, "device already has an owner");
            }
            owner = caller;
            return true;
        }
        if (io == UapiIoctl.VHOST_SET_FORK_FROM_OWNER) {
            if (owner != null) {
                throw KernelError.of(Errno.EBUSY, "fork owner mode is fixed once owned");
            }
            int v = UserMemory.readByte(arg, 0) & 0xFF;
            if (v > Math.max(vhost_h.VHOST_FORK_OWNER_KTHREAD(), vhost_h.VHOST_FORK_OWNER_TASK())) {
                throw KernelError.of(Errno.EINVAL, "fork owner mode " + v);
            }
            forkOwner = v;
            return true;
        }
        if (io == UapiIoctl.VHOST_GET_FORK_FROM_OWNER) {
            UserMemory.writeByte(arg, 0, (byte) forkOwner);
            return true;
        }
        if (owner != caller) {
            throw KernelError.of(Errno.EPERM, "caller is not the owner");
        }
        if (io == UapiIoctl.VHOST_SET_MEM_TABLE) {
            setMemTable(arg);
            return true;
        }
        return false;
    }

    /** vhost_set_memory: validated and kept nowhere (vhost-vdpa never uses it). */
    private void setMemTable(MemorySegment arg) {
        MemorySegment h = UserMemory.copyIn(arg, 0, MEMORY_HEADER);
        if (vhost_memory.padding(h) != 0) {
            throw KernelError.of(Errno.EOPNOTSUPP, "vhost_memory padding must be 0");
        }
        long n = Integer.toUnsignedLong(vhost_memory.nregions(h));
        if (n > MAX_MEM_REGIONS) {
            throw KernelError.of(Errno.E2BIG, n + " memory regions > " + MAX_MEM_REGIONS);
        }
        long regionSize = vhost_memory_region.layout().byteSize();
        MemorySegment regions = UserMemory.copyIn(arg, MEMORY_HEADER, n * regionSize);
        for (long i = 0; i < n; i++) {
            MemorySegment r = regions.asSlice(i * regionSize, regionSize);
            long start = vhost_memory_region.guest_phys_addr(r);
            long last = start + vhost_memory_region.memory_size(r) - 1;
            if (Long.compareUnsigned(last, start) < 0) {
                throw KernelError.of(Errno.EFAULT, "memory region " + i + " is empty or wraps");
            }
        }
    }

    // ------------------------------------------------------------------ vhost_vring_ioctl

    /**
     * vhost_vring_ioctl on vq {@code idx}: updates the vhost copy of the ring; the driver's
     * follow-up (the device's set_vq_* ops) is the caller's.
     *
     * @param numState the vhost_vring_state SET_VRING_NUM already copied in
     * @param packed   whether VIRTIO_F_RING_PACKED is acked (the base's layout)
     * @param numMax   the largest ring size accepted (the driver's limit where the kernel checks it)
     */
    void vringIoctl(FakeProcess caller, UapiIoctl io, int idx, MemorySegment numState, MemorySegment arg,
                    boolean packed, long numMax) {
        VhostVq vq = vqs[idx];
        switch (io) {
            case VHOST_SET_VRING_NUM -> {
                long num = Integer.toUnsignedLong(vhost_vring_state.num(numState));
                if (num == 0 || num > 0xFFFF || (num & (num - 1)) != 0 || num > numMax) {
                    throw KernelError.of(Errno.EINVAL, "vring num " + num + " (max " + numMax + ")");
                }
                vq.num = (int) num;
            }
            case VHOST_SET_VRING_ADDR -> setVringAddr(vq, arg);
            case VHOST_SET_VRING_BASE -> {
                MemorySegment st = UserMemory.copyIn(arg, 0, STATE_SIZE);
                long num = Integer.toUnsignedLong(vhost_vring_state.num(st));
                if (packed) {
                    vq.lastAvailIdx = (int) (num & 0xFFFF);
                    vq.lastUsedIdx = (int) (num >>> 16);
                } else {
                    if (num > 0xFFFF) {
                        throw KernelError.of(Errno.EINVAL, "split vring base " + num + " > 0xffff");
                    }
                    vq.lastAvailIdx = (int) num;
                }
            }
            case VHOST_GET_VRING_BASE -> writeState(arg, idx, packed
                    ? vq.lastAvailIdx | (vq.lastUsedIdx << 16) : vq.lastAvailIdx);
            case VHOST_SET_VRING_KICK -> setKick(caller, idx, vq, arg);
            case VHOST_SET_VRING_CALL -> vq.call = eventFdArg(caller, arg);
            case VHOST_SET_VRING_ERR -> vq.err = eventFdArg(caller, arg);
            case VHOST_SET_VRING_BUSYLOOP_TIMEOUT -> {
                MemorySegment st = UserMemory.copyIn(arg, 0, STATE_SIZE);
                vq.busyloopTimeout = vhost_vring_state.num(st);
            }
            case VHOST_GET_VRING_BUSYLOOP_TIMEOUT -> writeState(arg, idx, vq.busyloopTimeout);
            default -> throw KernelError.of(Errno.ENOTTY, io + " is not handled by vhost-vdpa");
        }
    }

    private static void setVringAddr(VhostVq vq, MemorySegment arg) {
        MemorySegment a = UserMemory.copyIn(arg, 0, vhost_vring_addr.layout().byteSize());
        int flags = vhost_vring_addr.flags(a);
        if ((flags & ~(1 << vhost_h.VHOST_VRING_F_LOG())) != 0) {
            throw KernelError.of(Errno.EOPNOTSUPP, "vring addr flags 0x" + Integer.toHexString(flags));
        }
        long avail = vhost_vring_addr.avail_user_addr(a);
        long used = vhost_vring_addr.used_user_addr(a);
        long log = vhost_vring_addr.log_guest_addr(a);
        if ((avail & 1) != 0 || (used & 3) != 0 || (log & 3) != 0) {
            throw KernelError.of(Errno.EINVAL, "misaligned vring addresses");
        }
        vq.logUsed = (flags & (1 << vhost_h.VHOST_VRING_F_LOG())) != 0;
        vq.desc = vhost_vring_addr.desc_user_addr(a);
        vq.avail = avail;
        vq.used = used;
        vq.logAddr = log;
    }

    private void setKick(FakeProcess caller, int idx, VhostVq vq, MemorySegment arg) {
        EventFdFile efd = eventFdArg(caller, arg);
        if (efd == vq.kick) {
            return;
        }
        vq.stopKick();
        if (efd != null) {
            IntConsumer kick = handleKick;
            Runnable listener = () -> kick.accept(idx);
            vq.kick = efd;
            vq.kickListener = listener;
            efd.addListener(listener);
            if (efd.counter() != 0) {
                kick.accept(idx);
            }
        }
    }

    /** A vhost_vring_file argument: −1 unbinds, otherwise the caller's eventfd (EBADF / EINVAL). */
    static EventFdFile eventFdArg(FakeProcess caller, MemorySegment arg) {
        MemorySegment f = UserMemory.copyIn(arg, 0, FILE_SIZE);
        int fd = vhost_vring_file.fd(f);
        return fd == vhost_h.VHOST_FILE_UNBIND() ? null : FakeInside.eventFdOf(caller, fd);
    }

    /** Copies a vhost_vring_state {index, num} out to the caller. */
    static void writeState(MemorySegment arg, int index, int num) {
        MemorySegment s = UserMemory.kernelBuffer(STATE_SIZE);
        vhost_vring_state.index(s, index);
        vhost_vring_state.num(s, num);
        UserMemory.copyOut(arg, 0, s);
    }

    // ------------------------------------------------------------------ vhost_chr_write_iter

    /**
     * vhost_chr_write_iter's parsing of one IOTLB message; only the bytes the kernel reads need to
     * be there. Errors are EINVAL.
     *
     * @param asidAcked whether VHOST_BACKEND_F_IOTLB_ASID is acked (a V2 message's asid counts)
     */
    static IotlbMessage readIotlbMessage(MemorySegment buf, boolean asidAcked) {
        long len = buf.byteSize();
        if (len < 4) {
            throw KernelError.of(Errno.EINVAL, "IOTLB write of " + len + " bytes: no message type");
        }
        MemorySegment head = UserMemory.copyIn(buf, 0, Math.min(len, BODY_OFFSET));
        int type = vhost_msg_v2.type(head);
        int asid = 0;
        if (type == vhost_h.VHOST_IOTLB_MSG_V2()) {
            if (asidAcked) {
                if (len < BODY_OFFSET) {
                    throw KernelError.of(Errno.EINVAL, "IOTLB V2 write of " + len + " bytes: no asid");
                }
                asid = vhost_msg_v2.asid(head);
            }
        } else if (type != vhost_h.VHOST_IOTLB_MSG()) {
            throw KernelError.of(Errno.EINVAL, "IOTLB message type " + type + " is neither V1 nor V2");
        }
        if (len < BODY_OFFSET + BODY_SIZE) {
            throw KernelError.of(Errno.EINVAL, "IOTLB write of " + len + " bytes: body short");
        }
        MemorySegment body = UserMemory.copyIn(buf, BODY_OFFSET, BODY_SIZE);
        IotlbMessage m = new IotlbMessage(asid, vhost_iotlb_msg.type(body) & 0xFF, vhost_iotlb_msg.iova(body),
                vhost_iotlb_msg.size(body), vhost_iotlb_msg.uaddr(body), vhost_iotlb_msg.perm(body) & 0xFF);
        if (m.type() == UPDATE && m.size() == 0) {
            throw KernelError.of(Errno.EINVAL, "IOTLB UPDATE of size 0");
        }
        return m;
    }
}
