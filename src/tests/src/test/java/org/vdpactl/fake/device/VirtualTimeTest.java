package org.vdpactl.fake.device;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.Test;
import org.vdpactl.fake.inside.FakeInside;
import org.vdpactl.fake.FakeKernel;
import org.vdpactl.fake.FakeProcess;
import org.vdpactl.fake.vhost.Vhost;
import org.vdpactl.fake.model.DriverModel;
import org.vdpactl.fake.model.OpCost;
import org.vdpactl.time.VirtualClock;
import org.vdpactl.vhost.VhostIoctl;

/** Driver-op costs under a virtual clock: serial users pay the sum, parallel users of different devices the longest path. */
class VirtualTimeTest {
    private static final long MS = 1_000_000;

    /** Every mlx5 device: suspend costs 10 ms (2 firmware commands), resume 4 ms. */
    private static final DriverModelFactory MODELS = (profile, preset, pairs, clock) -> new DriverModel() {
        @Override
        public OpCost suspend() {
            return new OpCost(10 * MS, 2, 0, 0, 0);
        }

        @Override
        public OpCost resume() {
            return OpCost.ofMillis(4);
        }
    };

    private static FakeKernel kernel(VirtualClock clock) {
        return FakeInside.driverModels(FakeKernel.builder().clock(clock), MODELS).build();
    }

    private static void suspendResume(FakeProcess p, String node) {
        try (Vhost v = new Vhost(p, node)) {
            v.setStatus(0xF);
            v.ioctl(VhostIoctl.VDPA_SUSPEND, MemorySegment.NULL);
            v.ioctl(VhostIoctl.VDPA_RESUME, MemorySegment.NULL);
        }
    }

    @Test
    void serialCallerPaysTheSum() {
        VirtualClock clock = new VirtualClock();
        try (FakeKernel k = kernel(clock); FakeProcess p = k.newProcess()) {
            suspendResume(p, "/dev/vhost-vdpa-2");
            suspendResume(p, "/dev/vhost-vdpa-3");
            assertEquals(28 * MS, clock.nanoTime());
            var c = FakeInside.device(k, "mlx5-0").orElseThrow().counters();
            assertEquals(14 * MS, c.total().nanos());
            assertEquals(2, c.total().syncCommands());
            assertEquals(1, c.calls("suspend"));
        }
    }

    @Test
    void parallelCallersOnDifferentDevicesPayTheLongestPath() throws Exception {
        assertEquals(List.of(14 * MS, 14 * MS), runParallel("/dev/vhost-vdpa-2", "/dev/vhost-vdpa-3"));
    }

    @Test
    void parallelCallersOnOneDeviceQueueBehindEachOther() throws Exception {
        VirtualClock clock = new VirtualClock();
        try (FakeKernel k = kernel(clock); FakeProcess p = k.newProcess(); Vhost v = new Vhost(p, "/dev/vhost-vdpa-2")) {
            v.setStatus(0xF);
            int fd = v.fd;
            ExecutorService pool = Executors.newFixedThreadPool(2);
            try {
                List<Future<Long>> ends = new ArrayList<>();
                for (int i = 0; i < 2; i++) {
                    ends.add(pool.submit(() -> {
                        clock.continueAt(0);
                        p.ioctl(fd, VhostIoctl.VDPA_SUSPEND.code(), MemorySegment.NULL);
                        return clock.nanoTime();
                    }));
                }
                long a = ends.get(0).get();
                long b = ends.get(1).get();
                assertEquals(List.of(10 * MS, 20 * MS), List.of(Math.min(a, b), Math.max(a, b)));
            } finally {
                pool.shutdownNow();
            }
        }
    }

    @Test
    void sameScenarioSameTimes() throws Exception {
        assertEquals(runParallel("/dev/vhost-vdpa-2", "/dev/vhost-vdpa-4"),
                runParallel("/dev/vhost-vdpa-2", "/dev/vhost-vdpa-4"));
    }

    private static List<Long> runParallel(String... nodes) throws Exception {
        VirtualClock clock = new VirtualClock();
        try (FakeKernel k = kernel(clock); FakeProcess p = k.newProcess()) {
            ExecutorService pool = Executors.newFixedThreadPool(nodes.length);
            try {
                List<Future<Long>> ends = new ArrayList<>();
                for (String node : nodes) {
                    ends.add(pool.submit(() -> {
                        clock.continueAt(0);
                        suspendResume(p, node);
                        return clock.nanoTime();
                    }));
                }
                List<Long> out = new ArrayList<>();
                for (Future<Long> f : ends) {
                    out.add(f.get());
                }
                return out;
            } finally {
                pool.shutdownNow();
            }
        }
    }
}
