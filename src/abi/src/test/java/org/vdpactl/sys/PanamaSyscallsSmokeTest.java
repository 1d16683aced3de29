package org.vdpactl.sys;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.vdpactl.ffi.gen.libc.libc_h;
import org.vdpactl.ffi.gen.netlink.genlmsghdr;
import org.vdpactl.ffi.gen.netlink.netlink_h;
import org.vdpactl.ffi.gen.netlink.nlattr;
import org.vdpactl.ffi.gen.netlink.nlmsgerr;
import org.vdpactl.ffi.gen.netlink.nlmsghdr;
import org.vdpactl.ffi.gen.netlink.sockaddr_nl;

/**
 * The Panama seam against this machine's own kernel: calls every build machine can make.
 * The netlink messages here are built by hand from the generated layouts on purpose: this test
 * checks the seam, not the project's netlink codec.
 */
class PanamaSyscallsSmokeTest {
    private final Syscalls sys = new PanamaSyscalls();

    @Test
    void fionreadOnAPipeCountsWhatWasWritten() {
        int[] p = sys.pipe(libc_h.O_CLOEXEC());
        try (Arena arena = Arena.ofConfined()) {
            assertEquals(5, sys.write(p[1], arena.allocateFrom("hello", StandardCharsets.US_ASCII).asSlice(0, 5)));
            MemorySegment n = arena.allocate(ValueLayout.JAVA_INT);
            assertEquals(0, sys.ioctl(p[0], libc_h.FIONREAD(), n));
            assertEquals(5, n.get(ValueLayout.JAVA_INT, 0));
        } finally {
            sys.close(p[0]);
            sys.close(p[1]);
        }
    }

    @Test
    void ioctlErrnoIsCapturedAndNamed() {
        int[] p = sys.pipe(libc_h.O_CLOEXEC());
        try {
            SyscallException e = assertThrows(SyscallException.class, () -> sys.ioctl(p[0], 0x8008AF00L, MemorySegment.NULL));
            assertEquals(Errno.ENOTTY, e.errno());
            assertEquals("EN" + "OTTY", e.errnoName());
            assertTrue(e.getMessage().contains("VHOST_GET_FEATURES") || e.getMessage().contains("0x8008AF00"), e.getMessage());
        } finally {
            sys.close(p[0]);
            sys.close(p[1]);
        }
    }

    @Test
    void aWriterWritesToItsFdAndNamesItsOwnErrno() {
        int[] p = sys.pipe(libc_h.O_CLOEXEC());
        try (Arena arena = Arena.ofConfined()) {
            assertEquals(5, sys.writer(p[1]).write(arena.allocateFrom("hello", StandardCharsets.US_ASCII).asSlice(0, 5)));
            MemorySegment got = arena.allocate(8);
            assertEquals(5, sys.read(p[0], got));
            assertEquals("hello", new String(got.asSlice(0, 5).toArray(ValueLayout.JAVA_BYTE), StandardCharsets.US_ASCII));
            // this thread's errno buffer of the seam now holds ENOTTY: the writer's failure must name its own errno
            assertEquals(Errno.ENOTTY, assertThrows(SyscallException.class,
                    () -> sys.ioctl(p[0], 0x8008AF00L, MemorySegment.NULL)).errno());
            SyscallException e = assertThrows(SyscallException.class, () -> sys.writer(987654).write(got));
            assertEquals(Errno.EBADF, e.errno());
            assertEquals("write", e.operation());
        } finally {
            sys.close(p[0]);
            sys.close(p[1]);
        }
    }

    @Test
    void closingAnUnknownFdIsEbadf() {
        SyscallException e = assertThrows(SyscallException.class, () -> sys.close(987654));
        assertEquals(Errno.EBADF, e.errno());
    }

    @Test
    void eventfdRoundTrip() {
        int fd = sys.eventfd(0, libc_h.EFD_CLOEXEC() | libc_h.EFD_NONBLOCK());
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment v = arena.allocate(ValueLayout.JAVA_LONG);
            SyscallException empty = assertThrows(SyscallException.class, () -> sys.read(fd, v));
            assertEquals(Errno.EAGAIN, empty.errno());
            v.set(ValueLayout.JAVA_LONG, 0, 3);
            assertEquals(8, sys.write(fd, v));
            v.set(ValueLayout.JAVA_LONG, 0, 4);
            assertEquals(8, sys.write(fd, v));
            assertEquals(libc_h.POLLIN(), sys.poll(fd, libc_h.POLLIN(), 0) & libc_h.POLLIN());
            assertEquals(8, sys.read(fd, v));
            assertEquals(7, v.get(ValueLayout.JAVA_LONG, 0));
            assertEquals(0, sys.poll(fd, libc_h.POLLIN(), 0));
        } finally {
            sys.close(fd);
        }
    }

    @Test
    void memfdMapSharedIsVisibleThroughTheFd() {
        int fd = sys.memfdCreate("vdpactl-smoke", libc_h.MFD_CLOEXEC());
        MemorySegment m = null;
        try (Arena arena = Arena.ofConfined()) {
            sys.ftruncate(fd, 4096);
            m = sys.mmap(4096, libc_h.PROT_READ() | libc_h.PROT_WRITE(), libc_h.MAP_SHARED(), fd, 0);
            m.set(ValueLayout.JAVA_LONG, 0, 0x1122334455667788L);
            MemorySegment buf = arena.allocate(8);
            assertEquals(8, sys.read(fd, buf));
            assertEquals(0x1122334455667788L, buf.get(ValueLayout.JAVA_LONG, 0));
        } finally {
            if (m != null) {
                sys.munmap(m);
            }
            sys.close(fd);
        }
    }

    @Test
    void statOfDevNullIsACharDevice() {
        FileStat st = sys.stat("/dev/null");
        assertEquals(FileStat.Type.CHAR_DEVICE, st.type());
        assertEquals("1:3", st.devNumber());
        assertEquals(Errno.ENOENT, assertThrows(SyscallException.class, () -> sys.stat("/nonexistent/vdpactl")).errno());
    }

    @Test
    void nlctrlResolvesItselfOverGenericNetlink() {
        MemorySegment reply = getFamily("nlctrl");
        assertEquals(netlink_h.GENL_ID_CTRL(), nlmsghdr.nlmsg_type(reply) & 0xFFFF);
        assertEquals(netlink_h.CTRL_CMD_NEWFAMILY(), genlmsghdr.cmd(reply.asSlice(nlmsghdr.sizeof())));
        // the first attribute after the genl header is FAMILY_NAME "nlctrl"
        MemorySegment attr = reply.asSlice(nlmsghdr.sizeof() + genlmsghdr.sizeof());
        assertEquals(netlink_h.CTRL_ATTR_FAMILY_NAME(), nlattr.nla_type(attr));
        byte[] name = attr.asSlice(nlattr.sizeof(), nlattr.nla_len(attr) - nlattr.sizeof() - 1).toArray(ValueLayout.JAVA_BYTE);
        assertArrayEquals("nlctrl".getBytes(StandardCharsets.US_ASCII), name);
    }

    @Test
    void unknownFamilyComesBackAsNlmsgErrorEnoent() {
        MemorySegment reply = getFamily("vdpactl-none");
        assertEquals(netlink_h.NLMSG_ERROR(), nlmsghdr.nlmsg_type(reply));
        assertEquals(-Errno.ENOENT, nlmsgerr.error(reply.asSlice(nlmsghdr.sizeof())));
    }

    @Test
    void vdpaFamilyIsEnoentWithoutTheModuleAndResolvesWithIt() {
        MemorySegment reply = getFamily("vdpa");
        if (new File("/sys/module/vdpa").exists()) {
            assertEquals(netlink_h.GENL_ID_CTRL(), nlmsghdr.nlmsg_type(reply) & 0xFFFF);
        } else {
            assertEquals(netlink_h.NLMSG_ERROR(), nlmsghdr.nlmsg_type(reply));
            assertEquals(-Errno.ENOENT, nlmsgerr.error(reply.asSlice(nlmsghdr.sizeof())));
        }
    }

    @Test
    void familyNamesLongerThanGenlNamsizAreEinval() {
        // nlctrl's policy caps CTRL_ATTR_FAMILY_NAME at GENL_NAMSIZ - 1 bytes: a policy error, not ENOENT
        MemorySegment reply = getFamily("vdpactl-no-such-family");
        assertEquals(netlink_h.NLMSG_ERROR(), nlmsghdr.nlmsg_type(reply));
        assertEquals(-Errno.EINVAL, nlmsgerr.error(reply.asSlice(nlmsghdr.sizeof())));
    }

    @Test
    void netlinkSocketOfAnUnknownProtocolIsATypedError() {
        SyscallException e = assertThrows(SyscallException.class,
                () -> sys.socket(libc_h.AF_NETLINK(), libc_h.SOCK_RAW(), 9999));
        assertEquals(Errno.EPROTONOSUPPORT, e.errno());
    }

    @Test
    void getsocknameOfABoundNetlinkSocketGivesTheKernelsPortId() {
        int fd = sys.socket(libc_h.AF_NETLINK(), libc_h.SOCK_RAW() | libc_h.SOCK_CLOEXEC(), libc_h.NETLINK_GENERIC());
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment addr = sockaddr_nl.allocate(arena);
            sockaddr_nl.nl_family(addr, (short) libc_h.AF_NETLINK());
            sys.bind(fd, addr);
            MemorySegment bound = sockaddr_nl.allocate(arena);
            assertEquals(sockaddr_nl.sizeof(), sys.getsockname(fd, bound));
            assertEquals(libc_h.AF_NETLINK(), sockaddr_nl.nl_family(bound));
            // bound with port id 0, the kernel picks one: never 0, which is the kernel's own
            assertNotEquals(0, sockaddr_nl.nl_pid(bound));
        } finally {
            sys.close(fd);
        }
    }

    @Test
    void setsockoptTakesANetlinkOptionAndItsErrnoIsCaptured() {
        int fd = sys.socket(libc_h.AF_NETLINK(), libc_h.SOCK_RAW() | libc_h.SOCK_CLOEXEC(), libc_h.NETLINK_GENERIC());
        try {
            sys.setsockopt(fd, libc_h.SOL_NETLINK(), netlink_h.NETLINK_EXT_ACK(), 1);
            assertEquals(Errno.EBADF, assertThrows(SyscallException.class,
                    () -> sys.setsockopt(987654, libc_h.SOL_NETLINK(), netlink_h.NETLINK_EXT_ACK(), 1)).errno());
        } finally {
            sys.close(fd);
        }
    }

    @Test
    void pollEndsAtItsTimeoutAndAnswersAtOnceWhenDataIsThere() {
        int[] p = sys.pipe(libc_h.O_CLOEXEC());
        try (Arena arena = Arena.ofConfined()) {
            assertEquals(0, sys.poll(p[0], libc_h.POLLIN(), 1));
            assertEquals(1, sys.write(p[1], arena.allocateFrom(ValueLayout.JAVA_BYTE, (byte) 1)));
            // whole seconds and milliseconds both reach the kernel's timespec (a tv_nsec out of range is EINVAL)
            assertEquals(libc_h.POLLIN(), sys.poll(p[0], libc_h.POLLIN(), 1500) & libc_h.POLLIN());
            assertEquals(libc_h.POLLIN(), sys.poll(p[0], libc_h.POLLIN(), -1) & libc_h.POLLIN());
        } finally {
            sys.close(p[0]);
            sys.close(p[1]);
        }
    }

    @Test
    void aSystemCallRefusesHeapAndClosedMemoryAsFfmDoes() {
        int fd = sys.socket(libc_h.AF_NETLINK(), libc_h.SOCK_RAW() | libc_h.SOCK_CLOEXEC(), libc_h.NETLINK_GENERIC());
        try {
            assertThrows(IllegalArgumentException.class, () -> sys.bind(fd, MemorySegment.ofArray(new byte[12])));
            MemorySegment closed;
            try (Arena arena = Arena.ofConfined()) {
                closed = sockaddr_nl.allocate(arena);
            }
            assertThrows(IllegalStateException.class, () -> sys.bind(fd, closed));
        } finally {
            sys.close(fd);
        }
    }

    private MemorySegment getFamily(String family) {
        int fd = sys.socket(libc_h.AF_NETLINK(), libc_h.SOCK_RAW() | libc_h.SOCK_CLOEXEC(), libc_h.NETLINK_GENERIC());
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment addr = sockaddr_nl.allocate(arena);
            sockaddr_nl.nl_family(addr, (short) libc_h.AF_NETLINK());
            sys.bind(fd, addr);
            byte[] nameBytes = (family + "\0").getBytes(StandardCharsets.US_ASCII);
            int attrLen = (int) nlattr.sizeof() + nameBytes.length;
            int len = (int) (nlmsghdr.sizeof() + genlmsghdr.sizeof()) + ((attrLen + 3) & ~3);
            MemorySegment msg = arena.allocate(len);
            nlmsghdr.nlmsg_len(msg, len);
            nlmsghdr.nlmsg_type(msg, (short) netlink_h.GENL_ID_CTRL());
            nlmsghdr.nlmsg_flags(msg, (short) netlink_h.NLM_F_REQUEST());
            nlmsghdr.nlmsg_seq(msg, 1);
            MemorySegment genl = msg.asSlice(nlmsghdr.sizeof());
            genlmsghdr.cmd(genl, (byte) netlink_h.CTRL_CMD_GETFAMILY());
            genlmsghdr.version(genl, (byte) 1);
            MemorySegment attr = genl.asSlice(genlmsghdr.sizeof());
            nlattr.nla_len(attr, (short) attrLen);
            nlattr.nla_type(attr, (short) netlink_h.CTRL_ATTR_FAMILY_NAME());
            MemorySegment.copy(nameBytes, 0, attr, ValueLayout.JAVA_BYTE, nlattr.sizeof(), nameBytes.length);
            MemorySegment kernel = sockaddr_nl.allocate(arena);
            sockaddr_nl.nl_family(kernel, (short) libc_h.AF_NETLINK());
            assertEquals(len, sys.sendto(fd, msg, 0, kernel));
            assertTrue(sys.poll(fd, libc_h.POLLIN(), 5000) != 0, "no netlink reply within 5 s");
            MemorySegment buf = arena.allocate(32768);
            long n = sys.recvfrom(fd, buf, 0);
            assertTrue(n >= nlmsghdr.sizeof());
            return Arena.ofAuto().allocate(n).copyFrom(buf.asSlice(0, n));
        } finally {
            sys.close(fd);
        }
    }
}
