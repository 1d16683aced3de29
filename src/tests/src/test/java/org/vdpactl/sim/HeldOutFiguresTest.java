package org.vdpactl.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.vdpactl.RepositoryRoot;
import org.vdpactl.fake.mlx5.Mlx5PublishedFigure;
import org.vdpactl.fake.mlx5.Mlx5PublishedFigure.Scenario;

/** The held-out figures are a guarded input: unreadable during a fit, absent from the fit's and the priors' sources. */
class HeldOutFiguresTest {
    /** The sources of the fit, its priors and the model it runs (found by name: the layout of the tree may change). */
    private static final Set<String> FIT_AND_PRIORS = Set.of("Mlx5Prior.java", "Mlx5Params.java", "Mlx5Calibration.java",
            "Mlx5PredictionInterval.java", "Mlx5PublishedFigure.java", "UpstreamScenarios.java");

    @Test
    void aReadWhileSealedThrowsAndScoringReadsBothFigures() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> HeldOutFigures.sealed(() -> HeldOutFigures.forScoring(Scenario.LM_DOWNTIME_2)));
        assertTrue(e.getMessage().contains("held-out"), e.getMessage());
        assertEquals(2, HeldOutFigures.forScoring(Scenario.LM_DOWNTIME_2).size());
        assertThrows(IllegalStateException.class, () -> Mlx5PublishedFigure.of(Scenario.LM_DOWNTIME_2),
                "the calibration set's type refuses a held-out scenario");
    }

    @Test
    void noHeldOutFigureIsTypedIntoTheFitOrItsPriors() throws IOException {
        List<Mlx5PublishedFigure> held = HeldOutFigures.forScoring(Scenario.LM_DOWNTIME_2);
        List<Long> numbers = new ArrayList<>();
        held.forEach(f -> numbers.add(Math.round(f.ms())));
        numbers.add(Math.round(held.get(0).ms() - held.get(1).ms())); // the published change
        List<Path> sources = sources();
        assertEquals(FIT_AND_PRIORS.size(), sources.size(), "found every source by name: " + sources);
        List<String> found = new ArrayList<>();
        for (Path p : sources) {
            String text = Files.readString(p);
            for (long n : numbers) {
                if (Pattern.compile("(?<![\\d.])" + n + "(?![\\d])").matcher(text.replace("_", "")).find()) {
                    found.add(p.getFileName() + ": " + n);
                }
            }
        }
        assertEquals(List.of(), found, "held-out figures (" + numbers + ") in the sources of the fit or its priors");
    }

    private static List<Path> sources() throws IOException {
        try (Stream<Path> s = Files.walk(RepositoryRoot.find())) {
            return s.filter(p -> FIT_AND_PRIORS.contains(p.getFileName().toString()))
                    .filter(p -> p.toString().contains("src") && !p.toString().contains("target"))
                    .toList();
        }
    }
}
