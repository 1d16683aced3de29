package org.vdpactl.orchestra;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * What a rehearsal does: which devices migrate where, which window phases run, how (strategy,
 * premap), over which guest memory and how often. Immutable; build with {@link #builder}.
 *
 * @param sources      the devices the guest leaves
 * @param destinations the devices it arrives at; equal to {@code sources} for a one-device-set
 *                     rehearsal (each device is reset between its two roles)
 * @param strategy     serial, parallel, pipelined or svq
 * @param premap       destination memory mapped before the window (needs IOTLB_PERSIST when the
 *                     devices are their own destination)
 * @param memory       the guest memory layout
 * @param iterations   how many times the window is rehearsed
 * @param phases       the window phases run, in {@link Phase} order
 * @param queuePairs   queue pairs a net device runs with (0 = all it offers); replayed through the CVQ
 * @param cvqTimeout   how long to wait for the device to answer a control-queue command
 * @param window       where the downtime starts and ends ({@link WindowMode}: a migration's window,
 *                     or a device restarted in place)
 */
public record RehearsalPlan(List<DeviceTarget> sources, List<DeviceTarget> destinations, Strategy strategy, boolean premap,
        GuestMemoryLayout memory, int iterations, Set<Phase> phases, int queuePairs, Duration cvqTimeout, WindowMode window) {

    public RehearsalPlan {
        sources = List.copyOf(sources);
        destinations = List.copyOf(destinations);
        phases = Set.copyOf(phases);
        Objects.requireNonNull(strategy, "strategy");
        Objects.requireNonNull(memory, "memory");
        Objects.requireNonNull(window, "window");
        if (sources.isEmpty()) {
            throw new IllegalArgumentException("a rehearsal needs at least one device");
        }
        if (destinations.size() != sources.size()) {
            throw new IllegalArgumentException("need as many destination devices (" + destinations.size()
                    + ") as source devices (" + sources.size() + ")");
        }
        if (iterations < 1) {
            throw new IllegalArgumentException("iterations must be at least 1: " + iterations);
        }
        Set<String> names = new HashSet<>();
        for (DeviceTarget d : sources) {
            if (!names.add(d.name())) {
                throw new IllegalArgumentException("device " + d.name() + " is listed twice");
            }
        }
        if (!sources.equals(destinations)) {
            for (DeviceTarget d : destinations) {
                if (!names.add(d.name())) {
                    throw new IllegalArgumentException("device " + d.name()
                            + " is both a source and a destination; use the same list for both or disjoint lists");
                }
            }
            if (phases.contains(Phase.RESET)) {
                throw new IllegalArgumentException("the reset phase only exists when devices are their own destination");
            }
        }
        for (Phase p : phases) {
            if (!p.inWindow()) {
                throw new IllegalArgumentException(p.label() + " is not a window phase");
            }
        }
        if (phases.isEmpty()) {
            throw new IllegalArgumentException("a rehearsal needs at least one window phase");
        }
        if (queuePairs < 0) {
            throw new IllegalArgumentException("queue pairs must not be negative: " + queuePairs);
        }
    }

    /** True when every device is its own destination. */
    public boolean sameDevices() {
        return sources.equals(destinations);
    }

    /** The lanes (one migration per source device), in plan order. */
    public List<Lane> lanes() {
        List<Lane> out = new ArrayList<>(sources.size());
        for (int i = 0; i < sources.size(); i++) {
            out.add(new Lane(sources.get(i).name(), destinations.get(i).name()));
        }
        return out;
    }

    /** The window phases in execution order. */
    public List<Phase> orderedPhases() {
        EnumSet<Phase> s = EnumSet.noneOf(Phase.class);
        s.addAll(phases);
        return List.copyOf(s);
    }

    public boolean runs(Phase p) {
        return phases.contains(p);
    }

    /**
     * The phases that run between the window phases but are the destination's preparation, left out
     * of the downtime: the reset of a device that is its own destination, in a {@link WindowMode#MIGRATION}
     * window. Empty otherwise.
     */
    public Set<Phase> preparationPhases() {
        return window == WindowMode.MIGRATION && sameDevices() && runs(Phase.RESET) ? Set.of(Phase.RESET) : Set.of();
    }

    /** True for a phase whose time counts as downtime under this plan. */
    public boolean inDowntime(Phase p) {
        return p.inWindow() && !preparationPhases().contains(p);
    }

    /** The window phases of a complete migration: source stop and save, destination start. */
    public static Set<Phase> migrationPhases(boolean sameDevices, boolean premap) {
        EnumSet<Phase> s = EnumSet.of(Phase.SUSPEND, Phase.SAVE_STATE, Phase.CONFIGURE, Phase.MAP, Phase.DRIVER_OK,
                Phase.CVQ_MQ, Phase.RESUME);
        if (sameDevices) {
            s.add(Phase.RESET);
        }
        if (premap) {
            s.remove(Phase.MAP);
        }
        return s;
    }

    public static Builder builder(List<DeviceTarget> devices) {
        return new Builder(devices);
    }

    /** Builder with the defaults of {@code vdpactl rehearse}. */
    public static final class Builder {
        private final List<DeviceTarget> sources;
        private List<DeviceTarget> destinations;
        private Strategy strategy = Strategy.PARALLEL;
        private boolean premap;
        private GuestMemoryLayout memory = GuestMemoryLayout.of(4L << 30, 1L << 30, 4096, true);
        private int iterations = 1;
        private Set<Phase> phases;
        private int queuePairs;
        private Duration cvqTimeout = Duration.ofSeconds(2);
        private WindowMode window = WindowMode.MIGRATION;

        private Builder(List<DeviceTarget> devices) {
            this.sources = List.copyOf(devices);
        }

        /** Separate destination devices (one per source, in order). */
        public Builder destinations(List<DeviceTarget> d) {
            this.destinations = List.copyOf(d);
            return this;
        }

        public Builder strategy(Strategy s) {
            this.strategy = s;
            return this;
        }

        public Builder premap(boolean on) {
            this.premap = on;
            return this;
        }

        public Builder memory(GuestMemoryLayout m) {
            this.memory = m;
            return this;
        }

        public Builder iterations(int n) {
            this.iterations = n;
            return this;
        }

        /** The window phases (default: {@link #migrationPhases}). */
        public Builder phases(Set<Phase> p) {
            this.phases = p;
            return this;
        }

        public Builder queuePairs(int pairs) {
            this.queuePairs = pairs;
            return this;
        }

        public Builder cvqTimeout(Duration t) {
            this.cvqTimeout = t;
            return this;
        }

        /** Where the downtime starts and ends (default {@link WindowMode#MIGRATION}). */
        public Builder window(WindowMode w) {
            this.window = w;
            return this;
        }

        public RehearsalPlan build() {
            List<DeviceTarget> dst = destinations == null ? sources : destinations;
            Set<Phase> p = phases != null ? phases : migrationPhases(dst.equals(sources), premap);
            return new RehearsalPlan(sources, dst, strategy, premap, memory, iterations, p, queuePairs, cvqTimeout, window);
        }
    }
}
