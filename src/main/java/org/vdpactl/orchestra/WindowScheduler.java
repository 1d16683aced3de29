package org.vdpactl.orchestra;

import java.util.List;

/**
 * Drives the lanes through the window phases by strategy: {@code serial} on the calling thread, one
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
            case SERIAL -> {
                for (MigrationLane lane : lanes) {
                    runPhases(lane, phases, control);
                    if (control.aborted()) {
                        return;
                    }
                }
            }
            case PARALLEL -> {
                for (Phase phase : phases) {
                    pool.forEach(lanes, lane -> runPhases(lane, List.of(phase), control));
                    if (control.aborted()) {
                        return;
                    }
                }
            }
            case PIPELINED -> pool.forEach(lanes, lane -> runPhases(lane, phases, control));
        }
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
            } catch (RuntimeException e) {
                // not a device call: still stop everyone and roll back rather than leave devices suspended
                String device = phase.side() == Phase.Side.DESTINATION ? lane.destination().target.name()
                        : lane.source().target.name();
                control.fail(new RehearsalFailure(device, phase, "(" + phase.label() + ")", -1, String.valueOf(e)));
                return;
            }
        }
    }
}
