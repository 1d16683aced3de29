package org.vdpactl.lane.qemu;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.vdpactl.sys.FileStat;
import org.vdpactl.sys.Syscalls;
import org.vdpactl.vhost.IotlbCodec;
import org.vdpactl.vhost.IotlbMessage;
import org.vdpactl.vhost.IotlbMessageType;
import org.vdpactl.vhost.VhostIoctl;

/**
 * vdpactl's side of the capture: every ioctl and IOTLB write the rehearsal makes on a
 * /dev/vhost-vdpa-N node, recorded at the Syscalls seam that all of vdpactl's kernel calls go
 * through, with the arguments decoded from the very bytes passed to the kernel (vring index, status
 * byte, IOTLB message). strace could not decode those arguments for the JVM, and QEMU's trace points
 * do not exist there; the seam sees exactly what reaches the node.
 */
final class RecordingSyscalls implements Syscalls {
    private final Syscalls delegate;
    private final Map<Integer, String> fdNode = new HashMap<>();
    private final Map<String, List<NodeCall>> calls = new HashMap<>();

    RecordingSyscalls(Syscalls delegate) {
        this.delegate = delegate;
    }

    synchronized List<NodeCall> calls(String node) {
        return List.copyOf(calls.getOrDefault(node, List.of()));
    }

    private synchronized void record(int fd, NodeCall c) {
        String node = fdNode.get(fd);
        if (node != null) {
            calls.computeIfAbsent(node, k -> Collections.synchronizedList(new ArrayList<>())).add(c);
        }
    }

    @Override
    public int open(String path, int flags) {
        int fd = delegate.open(path, flags);
        if (path.startsWith("/dev/vhost-vdpa-")) {
            synchronized (this) {
                fdNode.put(fd, path);
            }
        }
        return fd;
    }

    @Override
    public void close(int fd) {
        synchronized (this) {
            fdNode.remove(fd);
        }
        delegate.close(fd);
    }

    @Override
    public int ioctl(int fd, long request, MemorySegment arg) {
        long at = System.nanoTime();
        VhostIoctl ioctl = VhostIoctl.byCode(request);
        if (ioctl != null) {
            int vq = -1;
            int status = -1;
            switch (ioctl) {
                case SET_VRING_NUM, SET_VRING_BASE, GET_VRING_BASE, SET_VRING_ADDR, SET_VRING_KICK, SET_VRING_CALL,
                     VDPA_SET_VRING_ENABLE -> vq = arg.get(ValueLayout.JAVA_INT, 0);
                case VDPA_SET_STATUS -> status = Byte.toUnsignedInt(arg.get(ValueLayout.JAVA_BYTE, 0));
                default -> {
                }
            }
            record(fd, NodeCall.ioctl(ioctl, vq, status, at));
        }
        return delegate.ioctl(fd, request, arg);
    }

    @Override
    public long write(int fd, MemorySegment buf) {
        long at = System.nanoTime();
        if (buf.byteSize() >= IotlbCodec.MESSAGE_SIZE) {
            IotlbMessage m = IotlbCodec.decode(buf);
            record(fd, NodeCall.iotlb(IotlbMessageType.of(m.type()), m.asid(), at));
        }
        return delegate.write(fd, buf);
    }

    @Override
    public long read(int fd, MemorySegment buf) {
        return delegate.read(fd, buf);
    }

    @Override
    public int socket(int domain, int type, int protocol) {
        return delegate.socket(domain, type, protocol);
    }

    @Override
    public void bind(int fd, MemorySegment addr) {
        delegate.bind(fd, addr);
    }

    @Override
    public int getsockname(int fd, MemorySegment addr) {
        return delegate.getsockname(fd, addr);
    }

    @Override
    public void setsockopt(int fd, int level, int name, int value) {
        delegate.setsockopt(fd, level, name, value);
    }

    @Override
    public long sendto(int fd, MemorySegment buf, int flags, MemorySegment addr) {
        return delegate.sendto(fd, buf, flags, addr);
    }

    @Override
    public long recvfrom(int fd, MemorySegment buf, int flags) {
        return delegate.recvfrom(fd, buf, flags);
    }

    @Override
    public int poll(int fd, int events, int timeoutMillis) {
        return delegate.poll(fd, events, timeoutMillis);
    }

    @Override
    public MemorySegment mmap(long length, int prot, int flags, int fd, long offset) {
        return delegate.mmap(length, prot, flags, fd, offset);
    }

    @Override
    public void munmap(MemorySegment mapping) {
        delegate.munmap(mapping);
    }

    @Override
    public int memfdCreate(String name, int flags) {
        return delegate.memfdCreate(name, flags);
    }

    @Override
    public void ftruncate(int fd, long length) {
        delegate.ftruncate(fd, length);
    }

    @Override
    public int eventfd(int initialValue, int flags) {
        return delegate.eventfd(initialValue, flags);
    }

    @Override
    public int[] pipe(int flags) {
        return delegate.pipe(flags);
    }

    @Override
    public FileStat stat(String path) {
        return delegate.stat(path);
    }

    @Override
    public List<String> listDirectory(String path) {
        return delegate.listDirectory(path);
    }

    @Override
    public byte[] readSmallFile(String path) {
        return delegate.readSmallFile(path);
    }

    @Override
    public List<String> holdersOf(String path) {
        return delegate.holdersOf(path);
    }
}
