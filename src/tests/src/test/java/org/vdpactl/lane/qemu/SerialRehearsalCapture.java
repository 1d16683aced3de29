package org.vdpactl.lane.qemu;

import java.util.List;
import org.vdpactl.orchestra.DeviceTarget;
import org.vdpactl.orchestra.GuestMemoryLayout;
import org.vdpactl.orchestra.Rehearsal;
import org.vdpactl.orchestra.RehearsalPlan;
import org.vdpactl.orchestra.RehearsalResult;
import org.vdpactl.orchestra.Strategy;
import org.vdpactl.sys.Syscalls;
import org.vdpactl.time.Clock;
import org.vdpactl.vhost.VhostIoctl;

/**
 * vdpactl's side of the comparison: one iteration of {@code rehearse --strategy serial} on one
 * device with QEMU's guest memory size (64 MiB in one region), its calls on the node recorded at the
 * syscall seam, cut to the window (from the first SUSPEND on, as QEMU's window starts at `stop`).
 */
record SerialRehearsalCapture(RehearsalResult result, List<NodeCall> window) {

    static SerialRehearsalCapture run(Syscalls sys, Clock clock, DeviceTarget device) {
        RecordingSyscalls rec = new RecordingSyscalls(sys);
        RehearsalPlan plan = RehearsalPlan.builder(List.of(device)).strategy(Strategy.SERIAL)
                .memory(GuestMemoryLayout.of(64L << 20, 64L << 20, 4096, true)).iterations(1).build();
        RehearsalResult result = new Rehearsal(rec, clock).run(plan);
        List<NodeCall> calls = rec.calls(device.path());
        int first = 0;
        while (first < calls.size() && !calls.get(first).is(VhostIoctl.VDPA_SUSPEND)) {
            first++;
        }
        return new SerialRehearsalCapture(result, calls.subList(first, calls.size()));
    }
}
