package org.vdpactl.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.vdpactl.orchestra.Phase;

/**
 * The phases of an in-place window that follow each other on a device's bar (reset, CVQ MQ, resume) stay apart for a
 * reader with deuteranopia, the commonest colour-vision deficiency: each colour is passed through Machado, Oliveira and
 * Fernandes' deuteranopia matrix (2009, severity 1, applied to linear RGB) and the simulated colours differ by a CIE76
 * ΔE of at least {@value #MIN_DELTA_E} (about three times a difference one notices side by side). The reset's former
 * mid grey gave 7.1 against CVQ MQ.
 */
class PhaseColoursTest {
    static final double MIN_DELTA_E = 15;
    /** Machado et al. 2009, deuteranopia, severity 1.0 (linear RGB). */
    private static final double[][] DEUTERANOPIA = {
            {0.367322, 0.860646, -0.227968},
            {0.280085, 0.672501, 0.047413},
            {-0.011820, 0.042940, 0.968881}};

    static double deltaE(double[] a, double[] b) {
        double s = 0;
        for (int i = 0; i < 3; i++) {
            s += (a[i] - b[i]) * (a[i] - b[i]);
        }
        return Math.sqrt(s);
    }

    private static double linear(int c) {
        double v = c / 255.0;
        return v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
    }

    /** CIE L*a*b* (D65) of a colour "#rrggbb", as a deuteranope sees it when {@code deuteranopia}. */
    static double[] lab(String hex, boolean deuteranopia) {
        double[] rgb = new double[3];
        for (int i = 0; i < 3; i++) {
            rgb[i] = linear(Integer.parseInt(hex.substring(1 + 2 * i, 3 + 2 * i), 16));
        }
        if (deuteranopia) {
            double[] s = new double[3];
            for (int i = 0; i < 3; i++) {
                s[i] = Math.clamp(DEUTERANOPIA[i][0] * rgb[0] + DEUTERANOPIA[i][1] * rgb[1] + DEUTERANOPIA[i][2] * rgb[2], 0, 1);
            }
            rgb = s;
        }
        double x = (0.4124 * rgb[0] + 0.3576 * rgb[1] + 0.1805 * rgb[2]) / 0.95047;
        double y = 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2];
        double z = (0.0193 * rgb[0] + 0.1192 * rgb[1] + 0.9505 * rgb[2]) / 1.08883;
        return new double[] {116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))};
    }

    private static double f(double t) {
        return t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16.0 / 116;
    }

    @Test
    void theInPlaceWindowsNeighboursStayApartForADeuteranope() {
        List<Phase> neighbours = List.of(Phase.RESET, Phase.CVQ_MQ, Phase.RESUME);
        List<String> tooClose = new ArrayList<>();
        for (int i = 0; i < neighbours.size(); i++) {
            for (int j = i + 1; j < neighbours.size(); j++) {
                Phase a = neighbours.get(i);
                Phase b = neighbours.get(j);
                double e = deltaE(lab(a.color(), true), lab(b.color(), true));
                if (e < MIN_DELTA_E) {
                    tooClose.add(a.label() + " " + a.color() + " / " + b.label() + " " + b.color() + ": ΔE " + Math.round(e * 10) / 10.0);
                }
            }
        }
        assertEquals(List.of(), tooClose, "in-window colours a deuteranope cannot tell apart (want ΔE >= " + MIN_DELTA_E + ")");
    }

    @Test
    void theResetStaysApartFromEveryPhaseOfTheWindowForEveryone() {
        for (Phase p : Phase.values()) {
            if (p.inWindow() && p != Phase.RESET) {
                for (boolean deuteranopia : new boolean[] {false, true}) {
                    double e = deltaE(lab(Phase.RESET.color(), deuteranopia), lab(p.color(), deuteranopia));
                    assertTrue(e >= MIN_DELTA_E, "reset / " + p.label() + (deuteranopia ? " (deuteranopia)" : "") + ": ΔE " + e);
                }
            }
        }
    }

    @Test
    void theSimulationReproducesTheMergeItWasWrittenFor() {
        // the reset's former grey against CVQ MQ: the ΔE the browser check measured
        assertEquals(7.1, deltaE(lab("#999999", true), lab(Phase.CVQ_MQ.color(), true)), 0.05);
    }
}
