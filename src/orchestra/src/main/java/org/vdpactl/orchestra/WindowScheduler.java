package org.vdpactl.orchestra;

import java.util.List;
import java.util.stream.IntStream;

/**
 * Drives the lanes through the window phases by strategy: {@code serial} and {@code svq} on the calling thread, one
 * lane after another; {@code parallel} phase by phase on the pool with a barrier after each phase;
 * {@code pipelined} every lane through all its phases on its own thread. The first failure stops
 * every lane before its next call; the caller then rolls back.
 */
final class WindowScheduler {
    private final LanePool pool;

    WindowScheduler(LanePool pool) {
        this.pool = pool;
    }

    void run(Strategy strategy, List<MigrationLane> lanes, List<Phase> phases, WindowControl control) {
        switch (strategy) {
            case SERIAL, SVQ -> {
                for (MigrationLane lane : lanes) {
                    runPhases(lane, phases, control);
                    if (control.aborted()) {
                        return;
                    }
                }
            }
            case PARALLEL -> {
                // one fan-out for the whole window; the lanes meet at a barrier after each phase
                PhaseBarrier barrier = new PhaseBarrier(pool.clock(), lanes.size(), control::aborted);
                List<List<Phase>> single = phases.stream().map(List::of).toList();
                pool.forEach(indices(lanes.size()), i -> {
                    for (List<Phase> phase : single) {
                        runPhases(lanes.get(i), phase, control);
                        if (barrier.await(i)) {
                            return; // every lane leaves at the same barrier
                        }
                    }
                });
            }
            case PIPELINED -> pool.forEach(lanes, lane -> runPhases(lane, phases, control));
        }
    }

    private static List<Integer> indices(int n) {
        return IntStream.range(0, n).boxed().toList();
    }

    private static void runPhases(MigrationLane lane, List<Phase> phases, WindowControl control) {
        for (Phase phase : phases) {
            if (control.aborted()) {
                return;
            }
            try {
                lane.run(phase, control);
            } catch (WindowControl.Stopped stopped) {
                return;
            } catch (CallFailedException e) {
                control.fail(RehearsalFailure.of(e));
                return;
            } catch (RuntimeException | Error e) {
                // not a device call: still stop everyone and roll back rather than leave devices suspended;
                // an Error too, since under the parallel strategy this lane must still reach the barrier
                String device = phase.side() == Phase.Side.DESTINATION ? lane.destination().target.name()
                        : lane.source().target.name();
                control.fail(new RehearsalFailure(device, phase, "(" + phase.label() + ")", -1, String.valueOf(e)));
                return;
            }
        }
    }
}
