package org.vdpactl.bench;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.vdpactl.fake.FakeKernel;
import org.vdpactl.fake.FakeProcess;
import org.vdpactl.ffi.gen.libc.libc_h;
import org.vdpactl.ffi.gen.vhost.vhost_msg_v2;
import org.vdpactl.sys.PanamaSyscalls;
import org.vdpactl.sys.SessionFreeView;
import org.vdpactl.vhost.BackendFeatures;
import org.vdpactl.vhost.GuestMemory;
import org.vdpactl.vhost.IotlbBatchPlanner;
import org.vdpactl.vhost.IotlbCodec;
import org.vdpactl.vhost.IotlbPlan;
import org.vdpactl.vhost.IotlbRegion;
import org.vdpactl.vhost.IovaRange;
import org.vdpactl.vhost.VhostVdpaDevice;

/**
 * IOTLB throughput in messages per second: one operation = one map/unmap cycle of {@link IotlbWorkload}
 * (one batch of UPDATEs and one of as many INVALIDATEs), so the fake never runs out of entries.
 *
 * <ul>
 *   <li>{@link #planEncodeWrite}: the library's whole path into the fake ({@code mapAll} + {@code unmapAll}:
 *       GET_IOVA_RANGE, planning, encoding, one write(2) per message, the fake's IOTLB processing);</li>
 *   <li>{@link #encodeWrite}: the same with the plans made once (the per-message hot path plus the fake);</li>
 *   <li>{@link #planOnly}: the planner alone ({@code planMap} + {@code planUnmap}), messages planned per second;</li>
 *   <li>{@link #encodeOnly}: the Java side of the hot path without the write: every message of the plans encoded
 *       into one reused vhost_msg_v2 buffer;</li>
 *   <li>{@link #encodeWriteDevNull}: the plans written to {@code /dev/null} through the real Panama seam, so
 *       {@code -prof gc} sees only the library's own allocation on the hot path (the fake allocates as a
 *       kernel would, per message, and would hide it).</li>
 * </ul>
 *
 * <p>Its yardstick and the steps between them, all to {@code /dev/null}, the same messages (the report takes the
 * hot path apart by their differences):
 * <ul>
 *   <li>{@link #cLoopInJvm}: the C loop of src/bench/c/bench_common.h, called once per cycle from this JVM
 *       (src/bench/c/iotlb_cycle.c, built by scripts/bench, named by {@value #C_LIBRARY_ENV}): C's cost measured in
 *       the same process, thread, harness and run as the Java rows;</li>
 *   <li>{@link #ffmWrite}: one write downcall per message, errno captured into a buffer held in a field, the
 *       message encoded once: what FFM adds to C;</li>
 *   <li>{@link #ffmEncodeWriteOwnErrno}: plus {@link IotlbCodec#encode} of each message from the plans' columns, errno
 *       still captured into the field's buffer, as a device handle's writer does ({@code Syscalls.writer});</li>
 *   <li>{@link #encodeWriteDevNull}, above: plus the library's own work per message (plan walk, checks, the seam).</li>
 * </ul>
 *
 * <p>Beside the steps: {@link #ffmWriteThreadLocal} (the errno buffer looked up per call in a {@code ThreadLocal}, as
 * the seam's shared {@code write} does) and {@link #ffmEncodeWrite} (that plus encoding), the hot path before the
 * handle kept a writer of its own.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 2, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class IotlbBench {
    private static final int MESSAGES = IotlbWorkload.MESSAGES;
    /** The environment variable that names the C yardstick's shared library (scripts/bench sets it). */
    static final String C_LIBRARY_ENV = "VDPACTL_BENCH_IOTLB_LIB";
    private static final Linker LINKER = Linker.nativeLinker();
    private static final MethodHandle WRITE = LINKER.downcallHandle(LINKER.defaultLookup().find("write").orElseThrow(),
            FunctionDescriptor.of(libc_h.C_LONG, libc_h.C_INT, libc_h.C_POINTER, libc_h.C_LONG),
            Linker.Option.captureCallState("errno"));
    /** The seam's arrangement of the errno buffer (PanamaSyscalls: one per thread). */
    private static final ThreadLocal<MemorySegment> CAPTURED =
            ThreadLocal.withInitial(() -> Arena.ofAuto().allocate(Linker.Option.captureStateLayout()));

    private FakeKernel kernel;
    private FakeProcess process;
    private VhostVdpaDevice device;
    private GuestMemory memory;
    private List<IotlbRegion> layout;
    private IotlbBatchPlanner planner;
    private IovaRange range;
    private IotlbPlan map;
    private IotlbPlan unmap;
    private VhostVdpaDevice devNull;
    private Arena arena;
    private MemorySegment buffer;
    private PanamaSyscalls real;
    private int nullFd;
    private MemorySegment captured;
    private MemorySegment message;
    private IotlbColumns columns;
    private Arena cLibrary;
    private MethodHandle cCycle;

    @Setup(Level.Trial)
    public void open() {
        kernel = FakeKernel.builder().build();
        process = kernel.newProcess();
        process.setMemlockLimit(FakeProcess.UNLIMITED);
        device = VhostVdpaDevice.open(process, "/dev/vhost-vdpa-0");
        device.setOwner();
        device.negotiateBackendFeatures(BackendFeatures.ORCHESTRATION);
        memory = GuestMemory.create(process, "bench", IotlbWorkload.memoryBytes());
        layout = IotlbWorkload.layout(memory);
        planner = IotlbBatchPlanner.defaults();
        range = device.getIovaRange();
        map = planner.planMap(0, layout, range);
        unmap = planner.planUnmap(0, layout);
        IotlbWorkload.checkMessageCount(map.size(), unmap.size());
        arena = Arena.ofConfined();
        buffer = arena.allocate(vhost_msg_v2.layout());
        real = new PanamaSyscalls();
        devNull = VhostVdpaDevice.fromFd(real, real.open("/dev/null", libc_h.O_WRONLY() | libc_h.O_CLOEXEC()), "/dev/null", true);
        nullFd = real.open("/dev/null", libc_h.O_WRONLY() | libc_h.O_CLOEXEC());
        captured = arena.allocate(Linker.Option.captureStateLayout());
        // the device's kind of buffer: no arena for the downcall to acquire (SessionFreeView)
        message = SessionFreeView.of(arena.allocate(vhost_msg_v2.layout()));
        IotlbCodec.encode(message, map.message(1));
        columns = IotlbColumns.of(map, unmap);
        cLibrary = Arena.ofShared();
        String library = System.getenv(C_LIBRARY_ENV);
        // without the library (no C compiler) cLoopInJvm fails alone, with this message; the other rows run
        cCycle = library == null ? null : LINKER.downcallHandle(SymbolLookup.libraryLookup(Path.of(library), cLibrary)
                .find("iotlb_cycle").orElseThrow(), FunctionDescriptor.of(libc_h.C_INT, libc_h.C_INT));
    }

    @TearDown(Level.Trial)
    public void close() {
        real.close(nullFd);
        cLibrary.close();
        arena.close();
        devNull.close();
        device.close();
        memory.close();
        process.close();
        kernel.close();
    }

    @Benchmark
    @OperationsPerInvocation(MESSAGES)
    public void planEncodeWrite() {
        device.mapAll(0, layout, planner);
        device.unmapAll(0, layout);
    }

    @Benchmark
    @OperationsPerInvocation(MESSAGES)
    public void encodeWrite() {
        device.apply(map);
        device.apply(unmap);
    }

    @Benchmark
    @OperationsPerInvocation(MESSAGES)
    public int planOnly() {
        return planner.planMap(0, layout, range).size() + planner.planUnmap(0, layout).size();
    }

    @Benchmark
    @OperationsPerInvocation(MESSAGES)
    public long encodeOnly() {
        return encodeAll(map) + encodeAll(unmap);
    }

    private long encodeAll(IotlbPlan plan) {
        long sum = 0;
        for (int i = 0, n = plan.size(); i < n; i++) {
            IotlbCodec.encode(buffer, plan.message(i));
            sum += buffer.get(ValueLayout.JAVA_BYTE, 0);
        }
        return sum;
    }

    @Benchmark
    @OperationsPerInvocation(MESSAGES)
    public void encodeWriteDevNull() {
        devNull.apply(map);
        devNull.apply(unmap);
    }

    @Benchmark
    @OperationsPerInvocation(MESSAGES)
    public int cLoopInJvm() throws Throwable {
        if (cCycle == null) {
            throw new IllegalStateException(C_LIBRARY_ENV + " does not name the C yardstick (scripts/bench builds it)");
        }
        int failed = (int) cCycle.invokeExact(nullFd);
        if (failed != 0) {
            throw new IllegalStateException(failed + " writes of the C loop failed");
        }
        return failed;
    }

    @Benchmark
    @OperationsPerInvocation(MESSAGES)
    public long ffmWrite() throws Throwable {
        long written = 0;
        for (int i = 0; i < MESSAGES; i++) {
            written += (long) WRITE.invokeExact(captured, nullFd, message, IotlbCodec.MESSAGE_SIZE);
        }
        return written;
    }

    @Benchmark
    @OperationsPerInvocation(MESSAGES)
    public long ffmWriteThreadLocal() throws Throwable {
        long written = 0;
        for (int i = 0; i < MESSAGES; i++) {
            written += (long) WRITE.invokeExact(CAPTURED.get(), nullFd, message, IotlbCodec.MESSAGE_SIZE);
        }
        return written;
    }

    @Benchmark
    @OperationsPerInvocation(MESSAGES)
    public long ffmEncodeWriteOwnErrno() throws Throwable {
        IotlbColumns c = columns;
        long written = 0;
        for (int i = 0; i < MESSAGES; i++) {
            IotlbCodec.encode(message, IotlbCodec.V2, c.asid[i], c.type[i], c.iova[i], c.size[i], c.uaddr[i], c.perm[i]);
            written += (long) WRITE.invokeExact(captured, nullFd, message, IotlbCodec.MESSAGE_SIZE);
        }
        return written;
    }

    @Benchmark
    @OperationsPerInvocation(MESSAGES)
    public long ffmEncodeWrite() throws Throwable {
        IotlbColumns c = columns;
        long written = 0;
        for (int i = 0; i < MESSAGES; i++) {
            IotlbCodec.encode(message, IotlbCodec.V2, c.asid[i], c.type[i], c.iova[i], c.size[i], c.uaddr[i], c.perm[i]);
            written += (long) WRITE.invokeExact(CAPTURED.get(), nullFd, message, IotlbCodec.MESSAGE_SIZE);
        }
        return written;
    }
}
