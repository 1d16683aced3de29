package org.vdpactl.cli.rehearse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.vdpactl.orchestra.RehearsalPlan;
import org.vdpactl.sim.PresetComparison;
import org.vdpactl.sim.UpstreamScenarios;

/** The tables of {@code rehearse --compare}, rendered from the simulation's rows. */
class CompareTextTest {
    private static final double GOAL = 0.15;
    private static List<PresetComparison.Row> rows;

    @BeforeAll
    static void runScenarios() {
        rows = PresetComparison.upstream(UpstreamScenarios.PRE612, UpstreamScenarios.V612);
    }

    @Test
    void theHeldOutSectionReportsEachFigureAndWhetherTheGoalIsMet() {
        String text = CompareText.heldOut(rows);
        PresetComparison.Row r = rows.stream().filter(x -> x.scenario().startsWith("LM downtime #2")).findFirst().orElseThrow();
        double[][] e = r.intervalErrors();
        // the goal is judged on the whole interval: one end outside +-15 % misses it
        assertTrue(e[2][0] >= -GOAL && e[2][0] <= GOAL && e[2][1] > GOAL, "the change's interval straddles the goal: "
                + e[2][0] + ".." + e[2][1]);
        assertTrue(text.contains(CompareText.percent(e[2][0]) + ".." + CompareText.percent(e[2][1]) + "  goal NOT met"), text);
        // the absolute 6.12 window is mostly VMM work the driver model cannot see: reported as missed
        assertTrue(Math.abs(e[1][0]) > GOAL && Math.abs(e[1][1]) > GOAL);
        assertTrue(text.contains(CompareText.percent(e[1][0]) + ".." + CompareText.percent(e[1][1]) + "  goal NOT met"), text);
        assertTrue(text.contains("cannot predict"), text);
        assertTrue(text.contains(r.interval().fits() + " fits"), text);
    }

    @Test
    void theResetOfAMigrationWindowIsLabelledPreparation() {
        PresetComparison.Result r = PresetComparison.run(UpstreamScenarios.PRE612, UpstreamScenarios.V612, 2,
                d -> RehearsalPlan.builder(d).build());
        String text = CompareText.gainsAndLosses(r);
        assertTrue(text.contains("reset (preparation, not downtime)"), text);
    }

    @Test
    void otherPresetPairsHaveNoHeldOutSection() {
        assertEquals("", CompareText.heldOut(PresetComparison.upstream(UpstreamScenarios.V611, UpstreamScenarios.V612)));
    }

    @Test
    void aHeldOutRowScoresOnlyTheIntervalNotThePointWhosePriorCameFromTheHeldOutFigure() {
        PresetComparison.Result r = PresetComparison.run(UpstreamScenarios.PRE612, UpstreamScenarios.V612, 1,
                d -> RehearsalPlan.builder(d).build());
        String text = CompareText.render(r);
        assertTrue(!text.contains("change (before - after)"), text);
        List<String> lines = text.lines().toList();
        int lm2 = lines.indexOf(lines.stream().filter(l -> l.startsWith("LM downtime #2")).findFirst().orElseThrow());
        // the held-out scenario shows no point (no driver time, no total of the committed model): its prior came from
        // the held-out figure; only the bounds over the priors' admitted range
        int end = lm2 + 1;
        while (end < lines.size() && lines.get(end).startsWith("  ")) {
            end++;
        }
        List<String> section = lines.subList(lm2 + 1, end);
        assertEquals(List.of("VMM residual", "total over the undetermined priors", "change over the undetermined priors"),
                section.stream().map(l -> l.strip().split(" \\(|  ")[0]).toList(), text);
        // a calibration row keeps its error
        String window1 = lines.stream().skip(lines.indexOf(lines.stream().filter(l -> l.startsWith("LM downtime #1")).findFirst()
                .orElseThrow())).filter(l -> l.startsWith("  total")).findFirst().orElseThrow();
        assertTrue(window1.strip().matches(".*[+-]\\d+\\.\\d% / [+-]\\d+\\.\\d%"), window1);
    }
}
