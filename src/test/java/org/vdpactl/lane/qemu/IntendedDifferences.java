package org.vdpactl.lane.qemu;

import java.util.List;
import java.util.regex.Pattern;
import org.vdpactl.orchestra.Phase;

/**
 * The documented differences between QEMU's vhost-vdpa calls and the rehearsal's, each with its
 * reason. Short on purpose: where QEMU does something the rehearsal should do, the rehearsal
 * changes instead. docs/qemu-trace.md prints this list from the lane record.
 */
final class IntendedDifferences {
    private IntendedDifferences() {
    }

    /** phase null matches the phase order; side "qemu", "vdpactl" or "order"; token a regex over the whole token. */
    record Entry(String id, Phase phase, String side, Pattern token, String reason) {
        boolean explains(TraceComparison.Difference d) {
            return d.phase() == phase && d.side().equals(side) && token.matcher(d.token()).matches();
        }
    }

    static Entry of(String id, Phase phase, String side, String regex, String reason) {
        return new Entry(id, phase, side, Pattern.compile(regex), reason);
    }

    /** Against QEMU's plain stop/cont (no shadow virtqueues) and --strategy serial. */
    static final List<Entry> STOP_CONT = List.of();
}
