package org.vdpactl.cli.rehearse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The upstream configurations of mlx5-model.md §4.5, rehearsed on the fake kernel's mlx5 model with
 * a virtual clock: every figure within ±15% of the published one, and the firmware command counts
 * of §4.6. Nothing here feeds a published number into a simulated one: the rows are measured
 * rehearsals; the published values are only compared against.
 */
class PresetComparisonTest {
    private static final double TOLERANCE = 0.15;
    private static List<PresetComparison.Row> rows;

    @BeforeAll
    static void runScenarios() {
        rows = PresetComparison.upstream(PresetComparison.PRE612, PresetComparison.V612);
    }

    private static PresetComparison.Row row(String prefix) {
        return rows.stream().filter(r -> r.scenario().startsWith(prefix)).findFirst().orElseThrow();
    }

    private static void assertWithin(double published, double simulated, String what) {
        double dev = (simulated - published) / published;
        assertTrue(Math.abs(dev) <= TOLERANCE, String.format("%s: simulated %.2f ms vs published %.2f ms (%+.1f%%)", what,
                simulated, published, dev * 100));
    }

    private static void assertPublishedWindows(PresetComparison.Row r) {
        assertNotNull(r.published(), r.scenario());
        assertWithin(r.published().before(), r.before().totalMs(), r.scenario() + " before");
        assertWithin(r.published().after(), r.after().totalMs(), r.scenario() + " after");
    }

    @Test
    void suspendOfOneDeviceWith32Vqs() {
        PresetComparison.Row r = row("suspend");
        assertPublishedWindows(r);
        assertEquals("suspend: 64 sync", r.before().commands());
        assertEquals("suspend: 2 batches / 64 cmds", r.after().commands());
    }

    @Test
    void resumeOfOneDeviceWith32Vqs() {
        PresetComparison.Row r = row("resume");
        assertPublishedWindows(r);
        assertEquals("resume: 32 sync", r.before().commands());
        assertEquals("resume: 1 batch / 32 cmds", r.after().commands());
    }

    @Test
    void vqCreationAndResumeOf16PairsIsComparedWithV611() {
        PresetComparison.Row r = row("VQ creation");
        assertEquals(PresetComparison.V611, r.afterPreset());
        assertPublishedWindows(r);
    }

    @Test
    void liveMigrationWindowOneWithItsLabelledResidual() {
        PresetComparison.Row r = row("LM downtime #1");
        assertPublishedWindows(r);
        assertEquals(22.2, r.before().residualMs(), 1e-9);
        assertEquals(22.2, r.after().residualMs(), 1e-9);
        // the driver part alone is already close: the residual is small next to it
        assertWithin(r.published().before(), r.before().driverMs(), "#1 before without residual");
        assertTrue(r.after().commands().contains("set_map: 1 batch / 256 cmds + 1 sync"), r.after().commands());
        // 257 = 256 direct MKEYs + the indirect one (§4.6), plus the DESTROY_MKEY of the DMA MR that
        // the CLEAN_MAP reset re-installed in ASID 0 and that ≤ v6.11 releases synchronously in set_map
        assertTrue(r.before().commands().contains("set_map: 258 sync"), r.before().commands());
    }

    @Test
    void liveMigrationWindowTwoOfFourDevices() {
        PresetComparison.Row r = row("LM downtime #2");
        assertPublishedWindows(r);
        assertEquals(4 * 306.2, r.after().residualMs(), 1e-9);
    }

    @Test
    void otherPresetPairsShowNoPublishedFigures() {
        List<PresetComparison.Row> other = PresetComparison.upstream(PresetComparison.V611, PresetComparison.V612);
        assertTrue(other.stream().allMatch(r -> r.published() == null));
    }
}
