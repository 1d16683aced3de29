package org.vdpactl.lane.qemu;

import java.util.List;
import org.vdpactl.orchestra.DeviceTarget;
import org.vdpactl.orchestra.GuestMemoryLayout;
import org.vdpactl.orchestra.Rehearsal;
import org.vdpactl.orchestra.RehearsalListener;
import org.vdpactl.orchestra.RehearsalPlan;
import org.vdpactl.orchestra.RehearsalResult;
import org.vdpactl.orchestra.Strategy;
import org.vdpactl.sys.Syscalls;
import org.vdpactl.time.Clock;
import org.vdpactl.vhost.VhostIoctl;

/**
 * vdpactl's side of the comparison: one iteration of {@code rehearse --strategy serial} (or svq) on
 * one device with QEMU's guest memory size (64 MiB in one region), its calls on the node recorded at
 * the syscall seam, cut to the window: from the first SUSPEND on, as QEMU's window starts at `stop`,
 * to the end of the window phases (the restore and the report after them are the rehearsal's own).
 */
record RehearsalCapture(RehearsalResult result, List<NodeCall> window) {

    static RehearsalCapture serial(Syscalls sys, Clock clock, DeviceTarget device) {
        return run(sys, clock, device, Strategy.SERIAL);
    }

    static RehearsalCapture run(Syscalls sys, Clock clock, DeviceTarget device, Strategy strategy) {
        RecordingSyscalls rec = new RecordingSyscalls(sys);
        RehearsalPlan plan = RehearsalPlan.builder(List.of(device)).strategy(strategy)
                .memory(GuestMemoryLayout.of(64L << 20, 64L << 20, 4096, true)).iterations(1).build();
        int[] windowEnd = {-1};
        RehearsalResult result = new Rehearsal(rec, clock).listener(new RehearsalListener() {
            @Override
            public void windowDone(int index) {
                windowEnd[0] = rec.calls(device.path()).size(); // before the restore, which is no part of the window
            }
        }).run(plan);
        List<NodeCall> calls = rec.calls(device.path());
        int first = 0;
        while (first < calls.size() && !calls.get(first).is(VhostIoctl.VDPA_SUSPEND)) {
            first++;
        }
        int end = windowEnd[0] < 0 ? calls.size() : windowEnd[0];
        return new RehearsalCapture(result, calls.subList(Math.min(first, end), end));
    }
}
