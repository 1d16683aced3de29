package org.vdpactl.bench.startup;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The floor of a JVM program that asks generic netlink one question (scripts/lib/bench-startup.sh), which is what
 * {@code vdpactl --backend kernel dev list} does on a host without the vdpa module: socket(2), bind(2), sendto(2) of
 * a CTRL_CMD_GETFAMILY request for "vdpa", recvfrom(2) of the answer, close(2), each through an FFM downcall
 * handle that captures errno, as vdpactl's seam does; it prints whether the family exists. No codec, no command
 * model, no logging: whatever vdpactl costs beyond this is its own, this much is what the JVM and FFM cost.
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
        Linker linker = Linker.nativeLinker();
        StructLayout captureLayout = Linker.Option.captureStateLayout();
        VarHandle errno = captureLayout.varHandle(MemoryLayout.PathElement.groupElement("errno"));
        Linker.Option capture = Linker.Option.captureCallState("errno");
        ValueLayout i = ValueLayout.JAVA_INT;
        ValueLayout l = ValueLayout.JAVA_LONG;
        ValueLayout p = ValueLayout.ADDRESS;
        MethodHandle socket = handle(linker, "socket", FunctionDescriptor.of(i, i, i, i), capture);
        MethodHandle bind = handle(linker, "bind", FunctionDescriptor.of(i, i, p, i), capture);
        MethodHandle sendto = handle(linker, "sendto", FunctionDescriptor.of(l, i, p, l, i, p, i), capture);
        MethodHandle recvfrom = handle(linker, "recvfrom", FunctionDescriptor.of(l, i, p, l, i, p, p), capture);
        MethodHandle close = handle(linker, "close", FunctionDescriptor.of(i, i), capture);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment cs = arena.allocate(captureLayout);
            int fd = (int) socket.invokeExact(cs, AF_NETLINK, SOCK_RAW_CLOEXEC, NETLINK_GENERIC);
            if (fd < 0) {
                System.out.println("socket: errno " + (int) errno.get(cs, 0L));
                return;
            }
            try {
                MemorySegment addr = arena.allocate(12);
                addr.set(ValueLayout.JAVA_SHORT, 0, (short) AF_NETLINK);
                if ((int) bind.invokeExact(cs, fd, addr, 12) < 0) {
                    System.out.println("bind: errno " + (int) errno.get(cs, 0L));
                    return;
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
                if ((long) sendto.invokeExact(cs, fd, req, 32L, 0, addr, 12) < 0) {
                    System.out.println("sendto: errno " + (int) errno.get(cs, 0L));
                    return;
                }
                MemorySegment answer = arena.allocate(8192);
                long n = (long) recvfrom.invokeExact(cs, fd, answer, answer.byteSize(), 0, MemorySegment.NULL, MemorySegment.NULL);
                if (n < 16) {
                    System.out.println("recvfrom: errno " + (int) errno.get(cs, 0L));
                } else if (answer.get(ValueLayout.JAVA_SHORT, 4) == NLMSG_ERROR && answer.get(u32, 16) != 0) {
                    System.out.println("vdpa family: not available (error " + answer.get(u32, 16) + ")");
                } else {
                    System.out.println("vdpa family: available");
                }
            } finally {
                int ignored = (int) close.invokeExact(cs, fd);
            }
        }
    }

    private static MethodHandle handle(Linker linker, String name, FunctionDescriptor d, Linker.Option capture) {
        return linker.downcallHandle(linker.defaultLookup().find(name).orElseThrow(), d, capture);
    }
}
