package org.vdpactl.fake;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.statistics.Statistics;
import org.vdpactl.fake.vhost.Vhost;
import org.vdpactl.fake.vhost.VhostVdpaDriver;
import org.vdpactl.fake.model.MapEntry;
import org.vdpactl.fake.state.Inventory;
import org.vdpactl.fake.vhost.VhostVdpa;
import org.vdpactl.ffi.gen.libc.libc_h;
import org.vdpactl.ffi.gen.vhost.vhost_iotlb_msg;
import org.vdpactl.ffi.gen.vhost.vhost_msg_v2;
import org.vdpactl.sys.Errno;
import org.vdpactl.sys.SyscallException;
import org.vdpactl.vhost.VhostIoctl;

/**
 * Random call sequences against a vdpa_sim net device, checked against a small reference model of
 * the IOTLB rules (kernel-abi.md §5) and against invariants: only {@link SyscallException}s escape,
 * address spaces never hold overlapping entries nor more than 2048, the status only gains bits
 * except through a reset, and the same sequence always gives the same answers.
 */
class FakeKernelProperties {
    private static final long PAGE = 4096;
    private static final int GUEST_PAGES = 64;
    private static final Inventory ONE_NET = new Inventory(
            List.of(new Inventory.Mgmt("vdpasim_net", null, "vdpasim_net", null)),
            List.of(new Inventory.Device("vdpa0", "vdpasim_net", "02:00:00:00:00:01", null, null, null, null, null)));

    /** One step of a sequence. */
    sealed interface Action permits Ioctl, Iotlb, Reopen {
    }

    /** An ioctl with {@code argBytes} of argument ({@code null} = NULL pointer). */
    record Ioctl(long code, byte[] arg) implements Action {
        @Override
        public String toString() {
            return VhostIoctl.describe(code) + (arg == null ? "(NULL)" : "(" + arg.length + " bytes)");
        }
    }

    /**
     * An IOTLB write. {@code where}: 0 = shared memfd memory (mapped), 1 = anonymous private memory
     * (skipped), 2 = above every mapping (no VMA).
     */
    record Iotlb(int topType, int asid, int type, long iova, long size, int where, int pageOffset, int length)
            implements Action {
    }

    /** close() and open() the node again. */
    record Reopen() implements Action {
    }

    @Provide
    Arbitrary<List<Action>> sequences() {
        Arbitrary<Action> ioctl = Combinators.combine(
                Arbitraries.of(VhostIoctl.values()).map(VhostIoctl::code)
                        .injectDuplicates(0.1).edgeCases(e -> e.add(0xAFEEL)),
                Arbitraries.oneOf(Arbitraries.just((byte[]) null),
                        Arbitraries.bytes().between((byte) 0, (byte) 4).array(byte[].class).ofMinSize(0).ofMaxSize(48),
                        Arbitraries.bytes().array(byte[].class).ofMinSize(0).ofMaxSize(48)))
                .as((code, arg) -> (Action) new Ioctl(code, arg));
        Arbitrary<Action> setup = Arbitraries.of(
                new Ioctl(VhostIoctl.SET_OWNER.code(), null),
                new Ioctl(VhostIoctl.SET_BACKEND_FEATURES.code(), le64(0x0E)),
                new Ioctl(VhostIoctl.SET_BACKEND_FEATURES.code(), le64(0x106)),
                new Ioctl(VhostIoctl.VDPA_SET_STATUS.code(), new byte[] {0}),
                new Ioctl(VhostIoctl.VDPA_SET_STATUS.code(), new byte[] {0x0F}));
        Arbitrary<Action> iotlb = Combinators.combine(
                Arbitraries.of(2, 2, 2, 2, 2, 2, 1, 3),
                Arbitraries.integers().between(0, 2),
                Arbitraries.of(2, 2, 2, 3, 3, 5, 6, 1, 4),
                Arbitraries.oneOf(Arbitraries.longs().between(0, 24).map(p -> p * PAGE), Arbitraries.of(0L, -PAGE, -2 * PAGE, 5L)),
                Arbitraries.oneOf(Arbitraries.longs().between(0, 16).map(p -> p * PAGE), Arbitraries.of(1L, 2 * PAGE + 1)),
                Arbitraries.of(0, 0, 0, 1, 2),
                Arbitraries.integers().between(0, GUEST_PAGES - 16),
                Arbitraries.of(72, 72, 72, 72, 72, 72, 72, 40, 39, 3))
                .as((top, asid, type, iova, size, where, off, len) -> (Action) new Iotlb(top, asid, type, iova, size, where, off, len));
        Arbitrary<List<Action>> steps = Arbitraries.frequencyOf(
                        Tuple.of(3, ioctl),
                        Tuple.of(2, setup),
                        Tuple.of(10, iotlb),
                        Tuple.of(1, Arbitraries.just((Action) new Reopen())))
                .list().ofMinSize(1).ofMaxSize(60);
        // most sequences start as a VMM would, so that the IOTLB paths get past the owner check
        return Arbitraries.frequencyOf(
                Tuple.of(1, steps),
                Tuple.of(4, steps.map(l -> {
                    List<Action> withOwner = new ArrayList<>(l);
                    withOwner.addFirst(new Ioctl(VhostIoctl.SET_OWNER.code(), null));
                    return withOwner;
                })));
    }

    private static byte[] le64(long v) {
        byte[] b = new byte[8];
        MemorySegment.ofArray(b).set(ValueLayout.JAVA_LONG_UNALIGNED, 0, v);
        return b;
    }

    @Property(tries = 300)
    void sequencesKeepTheInvariantsAndMatchTheModel(@ForAll("sequences") List<Action> actions) {
        List<String> first = run(actions, true);
        assertEquals(first, run(actions, false), "the same calls give the same answers");
        Statistics.label("iotlb").coverage(c -> {
            c.check("update maps").count(n -> n > 0);
            c.check("update overlaps").count(n -> n > 0);
            c.check("invalidate removes").count(n -> n > 0);
        });
    }

    @Property(tries = 100)
    void shortSequencesOnly(@ForAll("sequences") @Size(max = 5) List<Action> actions) {
        run(actions, true);
    }

    /** Runs a sequence on a fresh kernel; returns one line per step (errno or result, tables). */
    private static List<String> run(List<Action> actions, boolean check) {
        List<String> trace = new ArrayList<>();
        try (FakeKernel k = FakeKernel.builder().inventory(ONE_NET).build();
             FakeProcess p = k.newProcess(); Arena arena = Arena.ofConfined()) {
            int memfd = p.memfdCreate("guest", 0);
            p.ftruncate(memfd, GUEST_PAGES * PAGE);
            int rw = libc_h.PROT_READ() | libc_h.PROT_WRITE();
            MemorySegment shared = p.mmap(GUEST_PAGES * PAGE, rw, libc_h.MAP_SHARED(), memfd, 0);
            MemorySegment anon = p.mmap(GUEST_PAGES * PAGE, rw, libc_h.MAP_PRIVATE() | libc_h.MAP_ANONYMOUS(), -1, 0);
            long above = p.addressSpace().vmas().stream().mapToLong(v -> v.end())
                    .reduce(0, (a, b) -> Long.compareUnsigned(a, b) > 0 ? a : b) + PAGE;
            var dev = k.device("vdpa0").orElseThrow();
            VhostVdpa vhost = VhostVdpaDriver.of(k).vhost(dev);
            Model model = new Model();
            int[] fd = {p.open("/dev/vhost-vdpa-0", libc_h.O_RDWR())};
            for (Action a : actions) {
                int statusBefore = dev.status();
                String result;
                switch (a) {
                    case Reopen r -> {
                        p.close(fd[0]);
                        fd[0] = p.open("/dev/vhost-vdpa-0", libc_h.O_RDWR());
                        model = new Model();
                        result = "reopen";
                    }
                    case Ioctl io -> {
                        MemorySegment arg = io.arg() == null ? MemorySegment.NULL : arena.allocate(Math.max(1, io.arg().length), 8)
                                .asSlice(0, io.arg().length);
                        if (io.arg() != null) {
                            arg.copyFrom(MemorySegment.ofArray(io.arg()));
                        }
                        int e = call(() -> p.ioctl(fd[0], io.code(), arg));
                        model.afterIoctl(io, e);
                        result = io + " -> " + e;
                    }
                    case Iotlb m -> {
                        long uaddr = switch (m.where()) {
                            case 0 -> shared.address() + m.pageOffset() * PAGE;
                            case 1 -> anon.address() + m.pageOffset() * PAGE;
                            default -> above;
                        };
                        MemorySegment msg = Vhost.msg(arena, m.asid(), m.type(), m.iova(), m.size(), uaddr);
                        vhost_msg_v2.type(msg, m.topType());
                        int e = call(() -> {
                            long n = p.write(fd[0], msg.asSlice(0, m.length()));
                            if (n != 72) {
                                throw new AssertionError("write returned " + n);
                            }
                        });
                        if (check) {
                            int expected = model.write(m, m.where() == 0);
                            assertEquals(expected, e, () -> "errno of " + m);
                            Statistics.label("iotlb").collect(model.lastEvent);
                        }
                        result = m + " -> " + e;
                    }
                }
                int statusAfter = dev.status();
                if (check) {
                    assertTrue(statusAfter == 0 || (statusAfter & statusBefore) == statusBefore,
                            () -> String.format("status went from 0x%x to 0x%x", statusBefore, statusAfter));
                    for (int asid = 0; asid < dev.nas(); asid++) {
                        List<MapEntry> t = vhost.iotlbEntries(asid);
                        assertTrue(t.size() <= VhostVdpa.MAX_IOTLB_ENTRIES);
                        for (int i = 1; i < t.size(); i++) {
                            assertTrue(Long.compareUnsigned(t.get(i - 1).last(), t.get(i).iova()) < 0, "overlap in " + t);
                        }
                        assertEquals(model.table(asid), ranges(vhost, asid),
                                "table of asid " + asid + " after " + a);
                        assertEquals(model.as.containsKey(asid), vhost.hasAddressSpace(asid), "AS " + asid + " exists");
                    }
                }
                trace.add(result + " " + ranges(vhost, 0) + ranges(vhost, 1) + " status " + statusAfter);
            }
            p.close(fd[0]);
        }
        return trace;
    }

    private static List<String> ranges(VhostVdpa vhost, int asid) {
        return vhost.iotlbEntries(asid).stream().map(x -> x.iova() + "+" + x.size()).toList();
    }

    /** Runs a call; returns 0 or its errno. Anything but a SyscallException fails the property. */
    private static int call(Runnable r) {
        try {
            r.run();
            return 0;
        } catch (SyscallException e) {
            return e.errno();
        }
    }

    /** The IOTLB rules of kernel-abi.md §5.1-§5.3 for a vdpa_sim (VA mode, set_map) device. */
    private static final class Model {
        final Map<Integer, TreeMap<Long, Long>> as = new HashMap<>();
        boolean owner;
        long acked;
        boolean inBatch;
        int batchAsid;
        String lastEvent = "";

        void afterIoctl(Ioctl io, int errno) {
            if (errno != 0) {
                return;
            }
            if (io.code() == VhostIoctl.SET_OWNER.code()) {
                owner = true;
            } else if (io.code() == VhostIoctl.SET_BACKEND_FEATURES.code()) {
                acked = MemorySegment.ofArray(io.arg()).get(ValueLayout.JAVA_LONG_UNALIGNED, 0);
            }
        }

        List<String> table(int asid) {
            List<String> out = new ArrayList<>();
            TreeMap<Long, Long> t = as.get(asid);
            if (t != null) {
                t.forEach((iova, size) -> out.add(iova + "+" + size));
            }
            return out;
        }

        int write(Iotlb m, boolean mappable) {
            lastEvent = "other";
            int r = write0(m, mappable);
            if (lastEvent.equals("other")) {
                lastEvent = r == 0 ? "ok" : Errno.name(r);
            }
            return r;
        }

        private int write0(Iotlb m, boolean mappable) {
            boolean v2 = m.topType() == 2;
            boolean readsAsid = v2 && (acked & 0x8) != 0;
            if (m.length() < 4 || (m.topType() != 1 && !v2) || m.length() < 40
                    || (m.type() == 2 && m.size() == 0)) {
                return Errno.EINVAL;
            }
            int asid = readsAsid ? m.asid() : 0;
            if (!owner) {
                return Errno.EFAULT;
            }
            TreeMap<Long, Long> t = as.get(asid);
            if (t == null && (m.type() == 2 || m.type() == 5)) {
                if (asid >= 2) {
                    return Errno.EFAULT;
                }
                t = new TreeMap<>(Long::compareUnsigned);
                as.put(asid, t);
            }
            if ((inBatch && batchAsid != asid) || t == null) {
                return Errno.EFAULT;
            }
            switch (m.type()) {
                case 2 -> {
                    long last = m.iova() + m.size() - 1;
                    if (Long.compareUnsigned(m.iova(), -1L - m.size() + 1) > 0) {
                        return Errno.EFAULT;
                    }
                    if (overlaps(t, m.iova(), last)) {
                        lastEvent = "update overlaps";
                        return Errno.EFAULT;
                    }
                    if (m.where() == 2) {
                        // no VMA: the kernel unmaps [iova, iova-1], which wraps to everything for iova 0
                        lastEvent = m.iova() == 0 && !t.isEmpty() ? "no VMA at iova 0 wipes the AS" : "no VMA";
                        removeOverlapping(t, m.iova(), m.iova() - 1);
                        return Errno.EFAULT;
                    }
                    if (mappable) {
                        t.put(m.iova(), m.size());
                        lastEvent = "update maps";
                    }
                    return 0;
                }
                case 3 -> {
                    int before = t.size();
                    removeOverlapping(t, m.iova(), m.iova() + m.size() - 1);
                    lastEvent = t.size() < before ? "invalidate removes" : "invalidate";
                    return 0;
                }
                case 5 -> {
                    batchAsid = asid;
                    inBatch = true;
                    return 0;
                }
                case 6 -> {
                    inBatch = false;
                    return 0;
                }
                default -> {
                    return Errno.EFAULT;
                }
            }
        }

        private static boolean overlaps(TreeMap<Long, Long> t, long first, long last) {
            for (var e : t.entrySet()) {
                long eLast = e.getKey() + e.getValue() - 1;
                if (Long.compareUnsigned(e.getKey(), last) <= 0 && Long.compareUnsigned(eLast, first) >= 0) {
                    return true;
                }
            }
            return false;
        }

        private static void removeOverlapping(TreeMap<Long, Long> t, long first, long last) {
            t.entrySet().removeIf(e -> Long.compareUnsigned(e.getKey(), last) <= 0
                    && Long.compareUnsigned(e.getKey() + e.getValue() - 1, first) >= 0);
        }
    }
}
