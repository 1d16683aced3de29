package org.vdpactl.conformance.netlink;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import org.vdpactl.conformance.OneThreadSyscalls;
import org.vdpactl.sys.Syscalls;

/**
 * A {@link Syscalls} whose calls all run on one platform thread that removed CAP_NET_ADMIN from
 * its effective and permitted sets with a raw capset(2). Linux keeps capabilities per thread, and
 * genetlink's GENL_ADMIN_PERM checks the sending thread, so this thread is "unprivileged" for
 * netlink while the rest of the test JVM keeps running as root.
 */
final class CapDroppedThreadSyscalls extends OneThreadSyscalls {
    private static final int CAP_NET_ADMIN = 12;
    private static final int LINUX_CAPABILITY_VERSION_3 = 0x20080522;

    CapDroppedThreadSyscalls(Syscalls delegate) {
        super(delegate, "netlink-unprivileged");
        onThread(() -> {
            dropCapNetAdmin();
            return null;
        });
    }

    private static void dropCapNetAdmin() {
        boolean arm = System.getProperty("os.arch").contains("aarch64");
        long capget = arm ? 90 : 125;
        long capset = arm ? 91 : 126;
        Linker linker = Linker.nativeLinker();
        MethodHandle syscall = linker.downcallHandle(linker.defaultLookup().find("syscall").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.ADDRESS, ValueLayout.ADDRESS),
                Linker.Option.firstVariadicArg(1));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment header = arena.allocate(8);
            header.set(ValueLayout.JAVA_INT, 0, LINUX_CAPABILITY_VERSION_3);
            MemorySegment data = arena.allocate(24);
            if ((long) syscall.invokeExact(capget, header, data) != 0) {
                throw new IllegalStateException("capget failed");
            }
            int mask = ~(1 << CAP_NET_ADMIN);
            data.set(ValueLayout.JAVA_INT, 0, data.get(ValueLayout.JAVA_INT, 0) & mask);
            data.set(ValueLayout.JAVA_INT, 4, data.get(ValueLayout.JAVA_INT, 4) & mask);
            if ((long) syscall.invokeExact(capset, header, data) != 0) {
                throw new IllegalStateException("capset failed");
            }
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }
}
