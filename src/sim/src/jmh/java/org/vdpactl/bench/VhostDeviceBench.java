package org.vdpactl.bench;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
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
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.vdpactl.ffi.gen.libc.libc_h;
import org.vdpactl.ffi.gen.vhost.vhost_msg_v2;
import org.vdpactl.ffi.gen.vhost.vhost_vring_state;
import org.vdpactl.sys.PanamaSyscalls;
import org.vdpactl.sys.SessionFreeView;
import org.vdpactl.sys.Syscalls;
import org.vdpactl.vhost.BackendFeature;
import org.vdpactl.vhost.BackendFeatures;
import org.vdpactl.vhost.GuestMemory;
import org.vdpactl.vhost.IotlbCodec;
import org.vdpactl.vhost.IotlbBatchPlanner;
import org.vdpactl.vhost.IotlbPlan;
import org.vdpactl.vhost.IotlbRegion;
import org.vdpactl.vhost.VhostIoctl;
import org.vdpactl.vhost.VhostVdpaDevice;

/**
 * The real device (VM lane only: a vdpa_sim node, {@code /dev/vhost-vdpa-0} by default): the same calls as
 * src/bench/c/vhost_loop.c, whose lines carry the same names, through the seam. ns per call; for the IOTLB
 * cycles ns per message ({@link IotlbWorkload}).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
// the VM lane's CPU is emulated (QEMU TCG): the JIT needs seconds of warm-up before the code is compiled
@Warmup(iterations = 10, time = 2)
@Measurement(iterations = 8, time = 1)
public class VhostDeviceBench {
    private static final Linker LINKER = Linker.nativeLinker();
    /** libc's write, errno captured: the bare downcall of {@link #iotlbMapUnmapBareFfm}. */
    private static final MethodHandle WRITE = LINKER.downcallHandle(LINKER.defaultLookup().find("write").orElseThrow(),
            FunctionDescriptor.of(libc_h.C_LONG, libc_h.C_INT, libc_h.C_POINTER, libc_h.C_LONG),
            Linker.Option.captureCallState("errno"));

    @Param("/dev/vhost-vdpa-0")
    public String device;

    private Syscalls sys;
    private VhostVdpaDevice dev;
    private Arena arena;
    private MemorySegment features;
    private MemorySegment vringState;
    private GuestMemory memory;
    private List<IotlbRegion> layout;
    private IotlbBatchPlanner planner;
    private IotlbPlan map;
    private IotlbPlan unmap;
    private int fd;
    private IotlbColumns columns;
    private MemorySegment captured;
    private MemorySegment message;

    @Setup(Level.Trial)
    public void open() {
        sys = new PanamaSyscalls();
        dev = VhostVdpaDevice.open(sys, device);
        dev.setOwner();
        dev.negotiateBackendFeatures(BackendFeatures.of(BackendFeature.IOTLB_MSG_V2, BackendFeature.IOTLB_BATCH));
        fd = dev.fd();
        arena = Arena.ofConfined();
        features = arena.allocate(ValueLayout.JAVA_LONG);
        vringState = vhost_vring_state.allocate(arena);
        vhost_vring_state.index(vringState, 0);
        memory = GuestMemory.create(sys, "bench", IotlbWorkload.memoryBytes());
        layout = IotlbWorkload.layout(memory);
        planner = IotlbBatchPlanner.defaults();
        map = planner.planMap(0, layout, dev.getIovaRange());
        unmap = planner.planUnmap(0, layout);
        IotlbWorkload.checkMessageCount(map.size(), unmap.size());
        columns = IotlbColumns.of(map, unmap);
        captured = arena.allocate(Linker.Option.captureStateLayout());
        // the device handle's kind of buffer: no arena for the downcall to acquire (SessionFreeView)
        message = SessionFreeView.of(arena.allocate(vhost_msg_v2.layout()));
    }

    @TearDown(Level.Trial)
    public void close() {
        memory.close();
        dev.close();
        arena.close();
    }

    @Benchmark
    public int getFeatures() {
        return sys.ioctl(fd, VhostIoctl.GET_FEATURES.code(), features);
    }

    @Benchmark
    public int getVringBase() {
        return sys.ioctl(fd, VhostIoctl.GET_VRING_BASE.code(), vringState);
    }

    /** Plans made once, as the C program writes its messages: encoding + write(2) per message. */
    @Benchmark
    @OperationsPerInvocation(IotlbWorkload.MESSAGES)
    public void iotlbMapUnmap() {
        dev.apply(map);
        dev.apply(unmap);
    }

    /**
     * The floor of {@link #iotlbMapUnmap} for any FFM caller: the same messages, each encoded by {@link IotlbCodec} from
     * the plans' columns (as C fills in each of its own) and written by a bare downcall with errno captured into a
     * buffer in a field; no plan walk, no check, no seam. What the library adds is the difference between the two.
     */
    @Benchmark
    @OperationsPerInvocation(IotlbWorkload.MESSAGES)
    public long iotlbMapUnmapBareFfm() throws Throwable {
        IotlbColumns c = columns;
        long written = 0;
        for (int i = 0; i < IotlbWorkload.MESSAGES; i++) {
            IotlbCodec.encode(message, IotlbCodec.V2, c.asid[i], c.type[i], c.iova[i], c.size[i], c.uaddr[i], c.perm[i]);
            long n = (long) WRITE.invokeExact(captured, fd, message, IotlbCodec.MESSAGE_SIZE);
            if (n != IotlbCodec.MESSAGE_SIZE) {
                throw new IllegalStateException("write IOTLB message " + i + " returned " + n);
            }
            written += n;
        }
        return written;
    }

    /** The library's whole path: {@code mapAll} + {@code unmapAll} (no C counterpart). */
    @Benchmark
    @OperationsPerInvocation(IotlbWorkload.MESSAGES)
    public void iotlbPlanMapUnmap() {
        dev.mapAll(0, layout, planner);
        dev.unmapAll(0, layout);
    }
}
