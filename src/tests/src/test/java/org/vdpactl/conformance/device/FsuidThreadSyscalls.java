package org.vdpactl.conformance.device;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

import org.vdpactl.conformance.OneThreadSyscalls;
import org.vdpactl.sys.Syscalls;

/**
 * A {@link Syscalls} whose calls run on one platform thread that changed its filesystem uid and
 * gid with raw setfsgid(2)/setfsuid(2). Both are per thread in Linux (glibc does not broadcast
 * them), and moving the fsuid away from 0 drops CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH from the
 * thread's effective set, so its open(2) is checked like an ordinary user's.
 */
final class FsuidThreadSyscalls extends OneThreadSyscalls {
    FsuidThreadSyscalls(Syscalls delegate, int uid, int gid) {
        super(delegate, "fsuid-unprivileged");
        onThread(() -> {
            // load the classes stat(2) goes through (the JDK's unix attribute view) while this thread may still read them
            delegate.stat("/");
            setFsIds(uid, gid);
            return null;
        });
    }

    private static void setFsIds(int uid, int gid) {
        boolean arm = System.getProperty("os.arch").contains("aarch64");
        long setfsuid = arm ? 151 : 122;
        long setfsgid = arm ? 152 : 123;
        Linker linker = Linker.nativeLinker();
        MethodHandle syscall = linker.downcallHandle(linker.defaultLookup().find("syscall").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG),
                Linker.Option.firstVariadicArg(1));
        try {
            // the group first: setfsgid needs CAP_SETGID, which the uid change would take away
            long unusedOldGid = (long) syscall.invokeExact(setfsgid, (long) gid);
            long unusedOldUid = (long) syscall.invokeExact(setfsuid, (long) uid);
            // both return the previous id whatever happened; a second call reads the current one back
            long nowGid = (long) syscall.invokeExact(setfsgid, (long) gid);
            long nowUid = (long) syscall.invokeExact(setfsuid, (long) uid);
            if (nowUid != uid || nowGid != gid) {
                throw new IllegalStateException("setfsuid/setfsgid did not take: fsuid " + nowUid + " fsgid " + nowGid);
            }
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }
}
