package org.vdpactl.fake;

import org.vdpactl.fake.vfs.EventFdFile;
import org.vdpactl.fake.vfs.FakeFile;
import org.vdpactl.fake.vfs.KernelConstants;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.vdpactl.fake.vhost.Vhost.errno;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.vdpactl.fake.mem.Vma;
import org.vdpactl.ffi.gen.libc.libc_h;
import org.vdpactl.sys.Errno;
import org.vdpactl.sys.FileStat;

/** The process-level part of the fake: fd table, eventfd, pipe, memfd/mmap, sockets, sysfs. */
class FakeProcessTest {
    private final FakeKernel kernel = FakeKernel.builder().build();
    private final FakeProcess p = kernel.newProcess();
    private final Arena arena = Arena.ofConfined();

    @AfterEach
    void tearDown() {
        p.close();
        arena.close();
        kernel.close();
    }

    private MemorySegment u64(long v) {
        MemorySegment s = arena.allocate(8);
        s.set(ValueLayout.JAVA_LONG, 0, v);
        return s;
    }

    @Test
    void descriptorsAreLowestFreeFromThree() {
        int a = p.eventfd(0, 0);
        int b = p.eventfd(0, 0);
        int c = p.eventfd(0, 0);
        assertEquals(List.of(3, 4, 5), List.of(a, b, c));
        p.close(b);
        assertEquals(4, p.eventfd(0, 0));
        assertEquals(6, p.eventfd(0, 0));
    }

    @Test
    void unknownDescriptorsAreEbadf() {
        assertEquals(Errno.EBADF, errno(() -> p.close(3)));
        assertEquals(Errno.EBADF, errno(() -> p.read(42, arena.allocate(8))));
        assertEquals(Errno.EBADF, errno(() -> p.write(42, arena.allocate(8))));
        assertEquals(Errno.EBADF, errno(() -> p.ioctl(42, 0xAF01, MemorySegment.NULL)));
        assertEquals(libc_h.POLLNVAL(), p.poll(42, libc_h.POLLIN(), 0));
        int fd = p.eventfd(0, 0);
        p.close(fd);
        assertEquals(Errno.EBADF, errno(() -> p.close(fd)));
    }

    @Test
    void fdLimitIsEmfile() {
        try (FakeKernel k = FakeKernel.builder().fdLimit(5).build(); FakeProcess q = k.newProcess()) {
            q.eventfd(0, 0);
            q.eventfd(0, 0);
            assertEquals(KernelConstants.EMFILE, errno(() -> q.eventfd(0, 0)));
        }
    }

    @Test
    void eventfdCountsAndDrains() {
        int fd = p.eventfd(2, libc_h.EFD_NONBLOCK());
        assertEquals(8, p.write(fd, u64(5)));
        MemorySegment buf = arena.allocate(8);
        assertEquals(8, p.read(fd, buf));
        assertEquals(7, buf.get(ValueLayout.JAVA_LONG, 0));
        assertEquals(Errno.EAGAIN, errno(() -> p.read(fd, buf)));
        assertEquals(Errno.EINVAL, errno(() -> p.read(fd, arena.allocate(7))));
        assertEquals(Errno.EINVAL, errno(() -> p.write(fd, arena.allocate(4))));
        assertEquals(Errno.EINVAL, errno(() -> p.write(fd, u64(-1L))));
        assertEquals(Errno.EINVAL, errno(() -> p.write(fd, MemorySegment.NULL)));
    }

    @Test
    void eventfdOverflowAndPoll() {
        int fd = p.eventfd(0, libc_h.EFD_NONBLOCK());
        assertEquals(libc_h.POLLOUT(), p.poll(fd, libc_h.POLLIN() | libc_h.POLLOUT(), 0));
        p.write(fd, u64(KernelConstants.EVENTFD_MAX));
        assertEquals(libc_h.POLLIN(), p.poll(fd, libc_h.POLLIN() | libc_h.POLLOUT(), 0));
        assertEquals(Errno.EAGAIN, errno(() -> p.write(fd, u64(1))));
        assertEquals(8, p.write(fd, u64(0)));
    }

    @Test
    void eventfdSemaphoreReadsOne() {
        int fd = p.eventfd(3, libc_h.EFD_SEMAPHORE() | libc_h.EFD_NONBLOCK());
        MemorySegment buf = arena.allocate(8);
        p.read(fd, buf);
        assertEquals(1, buf.get(ValueLayout.JAVA_LONG, 0));
        assertEquals(2, ((EventFdFile) p.fileOf(fd)).counter());
        assertEquals(Errno.EINVAL, errno(() -> p.eventfd(0, 0x1234)));
    }

    @Test
    void blockingEventfdReadWaitsForAWriter() throws Exception {
        int fd = p.eventfd(0, 0);
        MemorySegment nine = MemorySegment.ofArray(new long[] {9});
        Thread writer = new Thread(() -> p.write(fd, nine));
        writer.start();
        MemorySegment buf = Arena.ofAuto().allocate(8);
        assertEquals(8, p.read(fd, buf));
        writer.join();
        assertEquals(9, buf.get(ValueLayout.JAVA_LONG, 0));
    }

    @Test
    void pipeCarriesBytesAndReportsFionread() {
        int[] fds = p.pipe(libc_h.O_NONBLOCK());
        byte[] hello = "hello".getBytes(StandardCharsets.US_ASCII);
        assertEquals(5, p.write(fds[1], MemorySegment.ofArray(hello)));
        MemorySegment n = arena.allocate(4);
        p.ioctl(fds[0], libc_h.FIONREAD(), n);
        assertEquals(5, n.get(ValueLayout.JAVA_INT, 0));
        MemorySegment buf = arena.allocate(16);
        assertEquals(5, p.read(fds[0], buf));
        assertArrayEquals(hello, buf.asSlice(0, 5).toArray(ValueLayout.JAVA_BYTE));
        assertEquals(Errno.EAGAIN, errno(() -> p.read(fds[0], buf)));
        assertEquals(Errno.EBADF, errno(() -> p.read(fds[1], buf)));
        assertEquals(Errno.EBADF, errno(() -> p.write(fds[0], buf)));
        p.close(fds[1]);
        assertEquals(0, p.read(fds[0], buf));
        assertTrue((p.poll(fds[0], libc_h.POLLIN(), 0) & libc_h.POLLHUP()) != 0);
    }

    @Test
    void pipeWithoutReaderIsEpipe() {
        int[] fds = p.pipe(0);
        p.close(fds[0]);
        assertEquals(KernelConstants.EPIPE, errno(() -> p.write(fds[1], MemorySegment.ofArray(new byte[1]))));
    }

    @Test
    void memfdSharedMappingsShareMemoryAndAreFileBackedVmas() {
        int fd = p.memfdCreate("guest", libc_h.MFD_CLOEXEC());
        p.ftruncate(fd, 2 * 4096);
        MemorySegment whole = p.mmap(2 * 4096, libc_h.PROT_READ() | libc_h.PROT_WRITE(), libc_h.MAP_SHARED(), fd, 0);
        MemorySegment second = p.mmap(4096, libc_h.PROT_READ() | libc_h.PROT_WRITE(), libc_h.MAP_SHARED(), fd, 4096);
        whole.set(ValueLayout.JAVA_LONG, 4096, 0x1122334455667788L);
        assertEquals(0x1122334455667788L, second.get(ValueLayout.JAVA_LONG, 0));
        Vma vma = p.addressSpace().findVma(whole.address()).orElseThrow();
        assertTrue(vma.iotlbMappable());
        MemorySegment priv = p.mmap(4096, libc_h.PROT_READ() | libc_h.PROT_WRITE(), libc_h.MAP_PRIVATE(), fd, 0);
        assertFalse(p.addressSpace().findVma(priv.address()).orElseThrow().iotlbMappable());
        MemorySegment anon = p.mmap(4096, libc_h.PROT_READ() | libc_h.PROT_WRITE(),
                libc_h.MAP_PRIVATE() | libc_h.MAP_ANONYMOUS(), -1, 0);
        assertFalse(p.addressSpace().findVma(anon.address()).orElseThrow().iotlbMappable());
        MemorySegment shmem = p.mmap(4096, libc_h.PROT_READ() | libc_h.PROT_WRITE(),
                libc_h.MAP_SHARED() | libc_h.MAP_ANONYMOUS(), -1, 0);
        assertTrue(p.addressSpace().findVma(shmem.address()).orElseThrow().iotlbMappable());
        p.munmap(second);
        p.munmap(whole);
        p.close(fd);
        assertEquals(3, p.addressSpace().vmas().size());
    }

    @Test
    void aPrivateMemfdMappingStartsAsACopyOfTheFileEvenWithTheLongestName() {
        int prot = libc_h.PROT_READ() | libc_h.PROT_WRITE();
        int fd = p.memfdCreate("g".repeat(249), libc_h.MFD_CLOEXEC());
        p.ftruncate(fd, 4096);
        MemorySegment shared = p.mmap(4096, prot, libc_h.MAP_SHARED(), fd, 0);
        shared.set(ValueLayout.JAVA_LONG, 8, 42L);
        MemorySegment priv = p.mmap(4096, prot, libc_h.MAP_PRIVATE(), fd, 0);
        assertEquals(42L, priv.get(ValueLayout.JAVA_LONG, 8), "MAP_PRIVATE sees the file's pages");
        priv.set(ValueLayout.JAVA_LONG, 8, 7L);
        assertEquals(42L, shared.get(ValueLayout.JAVA_LONG, 8), "copy on write: the file keeps its bytes");
        p.close(fd);
    }

    @Test
    void hugeMemfdCostsNothingUntilTouched() {
        long size = 256L << 30;
        int fd = p.memfdCreate("guest-256g", 0);
        p.ftruncate(fd, size);
        MemorySegment mem = p.mmap(size, libc_h.PROT_READ() | libc_h.PROT_WRITE(), libc_h.MAP_SHARED(), fd, 0);
        assertEquals(size, mem.byteSize());
        mem.set(ValueLayout.JAVA_LONG, size - 8, 42);
        assertEquals(42, mem.get(ValueLayout.JAVA_LONG, size - 8));
        p.munmap(mem);
        p.close(fd);
    }

    @Test
    void mmapArgumentChecks() {
        int fd = p.eventfd(0, 0);
        int rw = libc_h.PROT_READ() | libc_h.PROT_WRITE();
        assertEquals(Errno.EINVAL, errno(() -> p.mmap(0, rw, libc_h.MAP_SHARED() | libc_h.MAP_ANONYMOUS(), -1, 0)));
        assertEquals(Errno.EINVAL, errno(() -> p.mmap(4096, rw, libc_h.MAP_ANONYMOUS(), -1, 0)));
        assertEquals(Errno.EINVAL, errno(() -> p.mmap(4096, rw, libc_h.MAP_SHARED(), fd, 100)));
        assertEquals(Errno.ENODEV, errno(() -> p.mmap(4096, rw, libc_h.MAP_SHARED(), fd, 0)));
        assertEquals(Errno.EBADF, errno(() -> p.mmap(4096, rw, libc_h.MAP_SHARED(), 99, 0)));
        assertEquals(Errno.EINVAL, errno(() -> p.ftruncate(fd, 10)));
    }

    @Test
    void socketsComeFromRegisteredFactories() {
        assertEquals(Errno.EAFNOSUPPORT, errno(() -> p.socket(KernelConstants.AF_INET, 1, 0)));
        assertEquals(Errno.EAFNOSUPPORT, errno(() -> p.socket(libc_h.AF_NETLINK(), libc_h.SOCK_RAW(), libc_h.NETLINK_GENERIC())));
        assertEquals(Errno.EAFNOSUPPORT, errno(() -> p.socket(99, 1, 0)));
        FakeFile sock = () -> "test-socket";
        kernel.registerSocketFactory(libc_h.AF_NETLINK(), libc_h.NETLINK_GENERIC(), (proc, type) -> sock);
        int fd = p.socket(libc_h.AF_NETLINK(), libc_h.SOCK_RAW() | libc_h.SOCK_CLOEXEC(), libc_h.NETLINK_GENERIC());
        assertEquals(sock, p.fileOf(fd));
        assertEquals(Errno.EPROTONOSUPPORT, errno(() -> p.socket(libc_h.AF_NETLINK(), libc_h.SOCK_RAW(), 0)));
        assertEquals(Errno.EINVAL, errno(() -> p.socket(libc_h.AF_NETLINK(), libc_h.SOCK_RAW() | 0x100, 16)));
        int efd = p.eventfd(0, 0);
        assertEquals(KernelConstants.ENOTSOCK, errno(() -> p.bind(efd, arena.allocate(12))));
        assertEquals(KernelConstants.ENOTSOCK, errno(() -> p.recvfrom(efd, arena.allocate(12), 0)));
    }

    @Test
    void sysfsAndDevfsDescribeTheNodes() {
        FileStat st = p.stat("/dev/vhost-vdpa-0");
        assertTrue(st.isCharDevice());
        assertEquals("248:0", st.devNumber());
        assertEquals(0600, st.mode());
        assertEquals(0, st.uid());
        assertEquals(List.of("mlx5-0", "mlx5-1", "mlx5-2", "mlx5-3", "vdpa0", "vdpa1"),
                p.listDirectory("/sys/bus/vdpa/devices"));
        assertTrue(p.listDirectory("/sys/bus/vdpa/devices/vdpa1").contains("vhost-vdpa-1"));
        assertEquals("248:2\n", new String(p.readSmallFile("/sys/dev/char/248:2/dev"),
                StandardCharsets.US_ASCII));
        assertEquals("248:0\n", new String(p.readSmallFile("/sys/bus/vdpa/devices/vdpa0/vhost-vdpa-0/dev"),
                StandardCharsets.US_ASCII));
        assertEquals(Errno.ENOENT, errno(() -> p.stat("/dev/vhost-vdpa-9")));
        assertEquals(Errno.ENOENT, errno(() -> p.listDirectory("/sys/bus/vdpa/devices/nope")));
        assertEquals(KernelConstants.EISDIR, errno(() -> p.readSmallFile("/sys/bus/vdpa/devices")));
        assertEquals(Errno.ENOTDIR, errno(() -> p.listDirectory("/sys/dev/char/248:0/dev")));
        assertEquals(Errno.ENOENT, errno(() -> p.listDirectory("/sys/class/vhost-vdpa")), "6.12 has no vhost-vdpa class");
        assertEquals(Errno.ENOENT, errno(() -> p.open("/dev/vhost-vdpa-9", libc_h.O_RDWR())));
        assertTrue(new String(p.readSmallFile("/proc/devices"), StandardCharsets.US_ASCII).contains("248 vhost-vdpa\n"));
    }

    @Test
    void sysfsAttributesCanBeOpenedReadOnly() {
        int fd = p.open("/sys/bus/vdpa/devices/vdpa1/vhost-vdpa-1/dev", libc_h.O_RDONLY());
        MemorySegment buf = arena.allocate(16);
        assertEquals(6, p.read(fd, buf));
        assertEquals(0, p.read(fd, buf));
        assertEquals(Errno.EACCES, errno(() -> p.open("/sys/bus/vdpa/devices/vdpa1/vhost-vdpa-1/dev", libc_h.O_RDWR())));
    }

    @Test
    void forkedChildSharesFilesButNotIdentity() {
        int fd = p.eventfd(0, libc_h.EFD_NONBLOCK());
        try (FakeProcess child = p.fork()) {
            assertNotEquals(p.pid(), child.pid());
            child.write(fd, u64(3));
            child.close(fd);
            assertEquals(3, ((EventFdFile) p.fileOf(fd)).counter());
        }
    }
}
