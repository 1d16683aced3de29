package org.vdpactl.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.vdpactl.RepositoryRoot;
import org.vdpactl.fake.mlx5.Mlx5PublishedFigure;
import org.vdpactl.fake.mlx5.Mlx5PublishedFigure.Scenario;

/** The held-out figures are a guarded input: unreadable during a fit, absent from the fit's and the priors' sources. */
class HeldOutFiguresTest {
    /**
     * The model's code and resources, where no held-out figure may be typed: the fake's mlx5 model (its parameters,
     * priors, presets, commands), the fake's resources (kernel profiles, presets), the simulator that runs the
     * scenarios, and the test-scope fit and prediction. Whole folders, so that a new file is scanned too.
     */
    static final List<String> MODEL_FOLDERS = List.of("src/fake/src/main/java/org/vdpactl/fake/mlx5", "src/fake/src/main/resources",
            "src/sim/src/main/java", "src/tests/src/test/java/org/vdpactl/fake/mlx5");
    /** The files of those folders that may hold a held-out figure, each with its reason. */
    static final Map<String, String> MAY_NAME_THEM = Map.of(
            "HeldOutFigures.java", "the guarded holder itself: the only place the figures are kept",
            "Mlx5GoldenValuesTest.java", "checks the spec's own arithmetic with the spec's table (docs/spec/mlx5-model.md §4.6),"
                    + " which the spec fitted with #2; it feeds no fit, prior or prediction");

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
        // the whole model is scanned, not a list of names: a prior typed into a preset or a profile is found as well
        for (String expected : List.of("Mlx5Prior.java", "Mlx5Params.java", "Mlx5Presets.java", "MrGarbageCollector.java",
                "UpstreamScenarios.java", "Mlx5Calibration.java", "Mlx5PredictionInterval.java", "Mlx5PublishedFigure.java")) {
            assertTrue(sources.stream().anyMatch(p -> p.getFileName().toString().equals(expected)), "scans " + expected);
        }
        assertTrue(sources.stream().anyMatch(p -> p.toString().contains("/resources/")), "scans the fake's resources");
        List<String> found = new ArrayList<>();
        for (Path p : sources) {
            String text = Files.readString(p);
            for (long n : numbers) {
                if (Pattern.compile("(?<![\\d.])" + n + "(?![\\d])").matcher(text.replace("_", "")).find()) {
                    found.add(RepositoryRoot.find().relativize(p) + ": " + n);
                }
            }
        }
        assertEquals(List.of(), found, "held-out figures (" + numbers + ") in the sources of the fit or its priors");
    }

    private static List<Path> sources() throws IOException {
        Path root = RepositoryRoot.find();
        List<Path> out = new ArrayList<>();
        for (String folder : MODEL_FOLDERS) {
            try (Stream<Path> s = Files.walk(root.resolve(folder))) {
                s.filter(Files::isRegularFile).filter(p -> !MAY_NAME_THEM.containsKey(p.getFileName().toString())).sorted()
                        .forEach(out::add);
            }
        }
        return out;
    }
}
