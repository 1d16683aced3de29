package org.vdpactl.bench.startup;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.ByteOrder;

/**
 * The floor of a JVM program that asks generic netlink one question (scripts/lib/bench-startup.sh), which is what
 * {@code vdpactl --backend kernel dev list} does on a host without the vdpa module: socket(2), bind(2), sendto(2) of
 * a CTRL_CMD_GETFAMILY request for "vdpa", recvfrom(2) of the answer, close(2), through one FFM downcall handle on
 * libc's syscall(2) that captures errno, as vdpactl's seam makes these calls; it prints whether the family exists.
 * No codec, no command model, no logging: whatever vdpactl costs beyond this is its own, this much is what the JVM
 * and FFM cost. ({@link #main} is also the whole of {@link KernelListHello}'s netlink part.)
 */
public final class NetlinkHello {
    private static final int AF_NETLINK = 16;
    private static final int SOCK_RAW_CLOEXEC = 3 | 0x80000;
    private static final int NETLINK_GENERIC = 16;
    private static final int GENL_ID_CTRL = 0x10;
    private static final int NLMSG_ERROR = 2;
    private static final int CTRL_CMD_GETFAMILY = 3;
    private static final int CTRL_ATTR_FAMILY_NAME = 2;

    private NetlinkHello() {
    }

    public static void main(String[] args) throws Throwable {
        System.out.println(ask());
    }

    /** The answer, in words; a program of its own each time, so nothing here is kept between calls. */
    static String ask() throws Throwable {
        // socket, bind, sendto, recvfrom, close: x86_64's numbers, else arm64's (docs/spec/kernel-abi.md §7.1)
        long[] nr = System.getProperty("os.arch").equals("aarch64") ? new long[] {198, 200, 206, 207, 57} : new long[] {41, 49, 44, 45, 3};
        Linker linker = Linker.nativeLinker();
        StructLayout captureLayout = Linker.Option.captureStateLayout();
        long errnoOffset = captureLayout.byteOffset(MemoryLayout.PathElement.groupElement("errno"));
        ValueLayout l = ValueLayout.JAVA_LONG;
        MethodHandle syscall = linker.downcallHandle(linker.defaultLookup().find("syscall").orElseThrow(),
                FunctionDescriptor.of(l, l, l, l, l, l, l, l), Linker.Option.captureCallState("errno"), Linker.Option.firstVariadicArg(1));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment cs = arena.allocate(captureLayout);
            long fd = (long) syscall.invokeExact(cs, nr[0], (long) AF_NETLINK, (long) SOCK_RAW_CLOEXEC, (long) NETLINK_GENERIC, 0L, 0L, 0L);
            if (fd < 0) {
                return "socket: errno " + cs.get(ValueLayout.JAVA_INT, errnoOffset);
            }
            try {
                MemorySegment addr = arena.allocate(12);
                addr.set(ValueLayout.JAVA_SHORT, 0, (short) AF_NETLINK);
                if ((long) syscall.invokeExact(cs, nr[1], fd, addr.address(), 12L, 0L, 0L, 0L) < 0) {
                    return "bind: errno " + cs.get(ValueLayout.JAVA_INT, errnoOffset);
                }
                // nlmsghdr (16) + genlmsghdr (4) + nlattr (4) + "vdpa\0" padded to 8
                MemorySegment req = arena.allocate(32);
                ValueLayout.OfInt u32 = ValueLayout.JAVA_INT.withOrder(ByteOrder.nativeOrder());
                req.set(u32, 0, 32);
                req.set(ValueLayout.JAVA_SHORT, 4, (short) GENL_ID_CTRL);
                req.set(ValueLayout.JAVA_SHORT, 6, (short) 1); // NLM_F_REQUEST
                req.set(u32, 8, 1);
                req.set(ValueLayout.JAVA_BYTE, 16, (byte) CTRL_CMD_GETFAMILY);
                req.set(ValueLayout.JAVA_BYTE, 17, (byte) 1);
                req.set(ValueLayout.JAVA_SHORT, 20, (short) 9);
                req.set(ValueLayout.JAVA_SHORT, 22, (short) CTRL_ATTR_FAMILY_NAME);
                req.setString(24, "vdpa");
                if ((long) syscall.invokeExact(cs, nr[2], fd, req.address(), 32L, 0L, addr.address(), 12L) < 0) {
                    return "sendto: errno " + cs.get(ValueLayout.JAVA_INT, errnoOffset);
                }
                MemorySegment answer = arena.allocate(8192);
                long n = (long) syscall.invokeExact(cs, nr[3], fd, answer.address(), answer.byteSize(), 0L, 0L, 0L);
                if (n < 16) {
                    return "recvfrom: errno " + cs.get(ValueLayout.JAVA_INT, errnoOffset);
                } else if (answer.get(ValueLayout.JAVA_SHORT, 4) == NLMSG_ERROR && answer.get(u32, 16) != 0) {
                    return "vdpa family: not available (error " + answer.get(u32, 16) + ")";
                }
                return "vdpa family: available";
            } finally {
                long ignored = (long) syscall.invokeExact(cs, nr[4], fd, 0L, 0L, 0L, 0L, 0L);
            }
        }
    }
}
