package org.vdpactl.bench;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.vdpactl.ffi.gen.libc.libc_h;
import org.vdpactl.sys.PanamaSyscalls;
import org.vdpactl.sys.Syscalls;

/**
 * FIONREAD on a pipe, one ioctl round trip per operation, through every way Java can make it.
 *
 * <p>{@link #seam} is what the library does ({@link Syscalls#ioctl} on {@link PanamaSyscalls}); the others
 * are its yardsticks: the same exact downcall handle used bare (with and without errno capture) and
 * jextract's variadic invoker, whose {@code apply} spreads a boxed {@code Object[]}. The C loop in
 * src/bench/c/ioctl_loop.c makes the same call for the FFM/C ratio.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 2, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class IoctlBench {
    private static final Linker LINKER = Linker.nativeLinker();
    private static final long FIONREAD = libc_h.FIONREAD();
    private static final FunctionDescriptor IOCTL_INT_LONG_PTR =
            FunctionDescriptor.of(libc_h.C_INT, libc_h.C_INT, libc_h.C_LONG, libc_h.C_POINTER);
    private static final MethodHandle BARE_CAPTURE = LINKER.downcallHandle(libc_h.ioctl.address(), IOCTL_INT_LONG_PTR,
            Linker.Option.captureCallState("errno"), Linker.Option.firstVariadicArg(2));
    private static final MethodHandle BARE = LINKER.downcallHandle(libc_h.ioctl.address(), IOCTL_INT_LONG_PTR,
            Linker.Option.firstVariadicArg(2));
    /** No thread-state transition around the call: only for calls that never block (see {@link #bareFfmCritical}). */
    private static final MethodHandle CRITICAL_CAPTURE = LINKER.downcallHandle(libc_h.ioctl.address(), IOCTL_INT_LONG_PTR,
            Linker.Option.captureCallState("errno"), Linker.Option.firstVariadicArg(2), Linker.Option.critical(false));
    private static final libc_h.ioctl GENERATED = libc_h.ioctl.makeInvoker(libc_h.C_POINTER);
    /** The seam's own arrangement of the errno buffer (one per thread), for the factor analysis below. */
    private static final ThreadLocal<MemorySegment> CAPTURED =
            ThreadLocal.withInitial(() -> Arena.ofAuto().allocate(Linker.Option.captureStateLayout()));

    private Syscalls seam;
    private Arena arena;
    private int[] pipe;
    private int fd;
    private MemorySegment count;
    private MemorySegment captured;
    private MemorySegment capturedAuto;

    @Setup(Level.Trial)
    public void openPipe() {
        seam = new PanamaSyscalls();
        pipe = seam.pipe(libc_h.O_CLOEXEC());
        fd = pipe[0];
        arena = Arena.ofConfined();
        count = arena.allocate(ValueLayout.JAVA_INT);
        captured = arena.allocate(Linker.Option.captureStateLayout());
        capturedAuto = Arena.ofAuto().allocate(Linker.Option.captureStateLayout());
    }

    @TearDown(Level.Trial)
    public void closePipe() {
        seam.close(pipe[0]);
        seam.close(pipe[1]);
        arena.close();
    }

    /** The library's path: interface call, thread-local errno buffer, result check. */
    @Benchmark
    public int seam() {
        return seam.ioctl(fd, FIONREAD, count);
    }

    /** The floor the seam is held to: the same exact handle, errno captured into a field's buffer. */
    @Benchmark
    public int bareFfmWithErrnoCapture() throws Throwable {
        return (int) BARE_CAPTURE.invokeExact(captured, fd, FIONREAD, count);
    }

    /**
     * The bare handle plus exactly one of the seam's ingredients, the thread-local errno buffer: if
     * {@link #seam} costs more than {@link #bareFfmWithErrnoCapture}, this shows how much of it is that lookup.
     */
    @Benchmark
    public int bareFfmThreadLocalCapture() throws Throwable {
        return (int) BARE_CAPTURE.invokeExact(CAPTURED.get(), fd, FIONREAD, count);
    }

    /**
     * The same handle made {@code critical}: the JVM skips the Java-to-native thread-state transition, which is
     * what FFM adds over C. Not usable in the seam as it is (a critical call holds up safepoints, so it must
     * never block, and vhost-vdpa writes and some ioctls can take milliseconds); it measures the transition.
     */
    @Benchmark
    public int bareFfmCritical() throws Throwable {
        return (int) CRITICAL_CAPTURE.invokeExact(captured, fd, FIONREAD, count);
    }

    /**
     * The bare handle with the errno buffer of an automatic arena (the seam's kind) in a field: separates what
     * the buffer's arena costs per call from what the thread-local lookup costs.
     */
    @Benchmark
    public int bareFfmAutoArenaCapture() throws Throwable {
        return (int) BARE_CAPTURE.invokeExact(capturedAuto, fd, FIONREAD, count);
    }

    /** What errno capture itself costs. */
    @Benchmark
    public int bareFfmNoCapture() throws Throwable {
        return (int) BARE.invokeExact(fd, FIONREAD, count);
    }

    /** jextract's variadic invoker as generated: the arguments are spread from a boxed Object[]. */
    @Benchmark
    public int generatedInvokerApply() {
        return GENERATED.apply(fd, FIONREAD, count);
    }
}
