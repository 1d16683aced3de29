package org.vdpactl.lane.qemu;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.vdpactl.orchestra.Phase;

/**
 * QEMU's window and vdpactl's, both normalised into phases ({@link PhaseNormaliser}), compared: the
 * order of the phases, then per phase the calls in order (a longest-common-subsequence diff, so one
 * missing call is one difference). Each difference is explained by an entry of
 * {@link IntendedDifferences} or is unexplained; the lane test fails on an unexplained one.
 */
final class TraceComparison {
    /** One difference: who has the token ("qemu", "vdpactl", or "order" for the phase order). */
    record Difference(Phase phase, String side, String token) {
        String describe() {
            return (phase == null ? "phase order" : phase.label()) + ": " + side + (side.equals("order") ? " " : " only: ") + token;
        }
    }

    private final Map<Phase, List<String>> qemu;
    private final Map<Phase, List<String>> vdpactl;
    private final List<Phase> qemuOrder;
    private final List<Phase> vdpactlOrder;

    TraceComparison(List<NodeCall> qemuWindow, List<NodeCall> vdpactlWindow) {
        var q = PhaseNormaliser.place(qemuWindow);
        var v = PhaseNormaliser.place(vdpactlWindow);
        this.qemu = PhaseNormaliser.byPhase(q);
        this.vdpactl = PhaseNormaliser.byPhase(v);
        this.qemuOrder = PhaseNormaliser.order(q);
        this.vdpactlOrder = PhaseNormaliser.order(v);
    }

    Map<Phase, List<String>> qemu() {
        return qemu;
    }

    Map<Phase, List<String>> vdpactl() {
        return vdpactl;
    }

    List<Phase> qemuOrder() {
        return qemuOrder;
    }

    List<Phase> vdpactlOrder() {
        return vdpactlOrder;
    }

    /** Every phase either side has, in Phase order. */
    List<Phase> phases() {
        Set<Phase> s = new LinkedHashSet<>();
        for (Phase p : Phase.values()) {
            if (qemu.containsKey(p) || vdpactl.containsKey(p)) {
                s.add(p);
            }
        }
        return List.copyOf(s);
    }

    List<Difference> differences() {
        List<Difference> out = new ArrayList<>();
        if (!qemuOrder.equals(vdpactlOrder)) {
            out.add(new Difference(null, "order", "QEMU " + labels(qemuOrder) + " / vdpactl " + labels(vdpactlOrder)));
        }
        for (Phase p : phases()) {
            diff(p, qemu.getOrDefault(p, List.of()), vdpactl.getOrDefault(p, List.of()), out);
        }
        return out;
    }

    static String labels(List<Phase> phases) {
        return String.join(", ", phases.stream().map(Phase::label).toList());
    }

    private static void diff(Phase p, List<String> a, List<String> b, List<Difference> out) {
        int[][] l = new int[a.size() + 1][b.size() + 1];
        for (int i = a.size() - 1; i >= 0; i--) {
            for (int j = b.size() - 1; j >= 0; j--) {
                l[i][j] = a.get(i).equals(b.get(j)) ? l[i + 1][j + 1] + 1 : Math.max(l[i + 1][j], l[i][j + 1]);
            }
        }
        int i = 0;
        int j = 0;
        while (i < a.size() || j < b.size()) {
            if (i < a.size() && j < b.size() && a.get(i).equals(b.get(j))) {
                i++;
                j++;
            } else if (j >= b.size() || (i < a.size() && l[i + 1][j] >= l[i][j + 1])) {
                out.add(new Difference(p, "qemu", a.get(i++)));
            } else {
                out.add(new Difference(p, "vdpactl", b.get(j++)));
            }
        }
    }

    /** One difference and the entry that explains it, or null. */
    record Explained(Difference difference, IntendedDifferences.Entry entry) {
    }

    /**
     * Each difference with the first entry that explains it; an entry marked once explains each
     * distinct (phase, side, token) once only, and an entry with a limit explains that many differences at most, so a
     * call the rehearsal drops cannot hide behind it.
     */
    List<Explained> explain(List<IntendedDifferences.Entry> intended) {
        Set<String> used = new HashSet<>();
        Map<String, Integer> explainedBy = new HashMap<>();
        List<Explained> out = new ArrayList<>();
        for (Difference d : differences()) {
            IntendedDifferences.Entry match = null;
            for (IntendedDifferences.Entry e : intended) {
                boolean withinLimit = e.limit() == 0 || explainedBy.getOrDefault(e.id(), 0) < e.limit();
                if (e.explains(d) && withinLimit
                        && (!e.once() || used.add(e.id() + " " + d.phase() + " " + d.side() + " " + d.token()))) {
                    match = e;
                    explainedBy.merge(e.id(), 1, Integer::sum);
                    break;
                }
            }
            out.add(new Explained(d, match));
        }
        return out;
    }

    /** The differences no entry of the list explains. */
    List<Difference> unexplained(List<IntendedDifferences.Entry> intended) {
        return explain(intended).stream().filter(x -> x.entry() == null).map(Explained::difference).toList();
    }
}
