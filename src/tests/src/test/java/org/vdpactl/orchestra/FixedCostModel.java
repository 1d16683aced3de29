package org.vdpactl.orchestra;

import java.util.List;
import org.vdpactl.fake.model.DriverModel;
import org.vdpactl.fake.model.MapEntry;
import org.vdpactl.fake.model.OpCost;

/**
 * A driver whose window ops cost fixed times (milliseconds, times {@code factor}), so tests can
 * compute the expected virtual-clock figures by hand: suspend, get_vq_state per VQ, reset,
 * set_map (non-empty table), DRIVER_OK and resume (outside the window: the window restarts every
 * destination from reset and resumes none). Everything else is free.
 */
final class FixedCostModel implements DriverModel {
    static final double SUSPEND = 3;
    static final double GET_VQ_STATE = 0.5;
    static final double RESET = 7;
    static final double SET_MAP = 20;
    static final double DRIVER_OK = 11;
    static final double RESUME = 2;

    private final double factor;
    private final double suspend;
    private final double setMap;

    FixedCostModel(double factor) {
        this(factor, SUSPEND, SET_MAP);
    }

    /** Per-op overrides for the slow-phase-differs-per-device tests. */
    FixedCostModel(double factor, double suspend, double setMap) {
        this.factor = factor;
        this.suspend = suspend;
        this.setMap = setMap;
    }

    /** What one device's same-device window costs with {@code vqs} virtqueues, premapped or not (ms). */
    static double window(double factor, int vqs, boolean mapInWindow) {
        return factor * (SUSPEND + vqs * GET_VQ_STATE + RESET + (mapInWindow ? SET_MAP : 0) + DRIVER_OK);
    }

    private OpCost ms(double v) {
        return OpCost.ofMillis(v * factor);
    }

    @Override
    public OpCost suspend() {
        return ms(suspend);
    }

    @Override
    public OpCost resume() {
        return ms(RESUME);
    }

    @Override
    public OpCost getVqState(int index) {
        return ms(GET_VQ_STATE);
    }

    @Override
    public OpCost reset(boolean cleanMap) {
        return ms(RESET);
    }

    @Override
    public OpCost setMap(int asid, List<MapEntry> table) {
        return table.isEmpty() ? OpCost.FREE : ms(setMap);
    }

    @Override
    public OpCost setStatus(int oldStatus, int newStatus) {
        boolean driverOk = (newStatus & 4) != 0 && (oldStatus & 4) == 0;
        return driverOk ? ms(DRIVER_OK) : OpCost.FREE;
    }
}
