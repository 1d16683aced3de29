package org.vdpactl.sim;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.vdpactl.fake.mlx5.Mlx5PublishedFigure;
import org.vdpactl.fake.mlx5.Mlx5PublishedFigure.Scenario;
import org.vdpactl.fake.mlx5.Mlx5PublishedFigure.Use;

/**
 * The held-out published figures (live-migration downtime #2), kept apart from the calibration set
 * ({@link Mlx5PublishedFigure}) so that held out is a guarded input, not a convention: only this
 * package's scoring ({@link PresetComparison}) can read them, the fit and the priors (package
 * {@code org.vdpactl.fake.mlx5}) cannot name them, and a read inside {@link #sealed} (where the tests
 * run the fit and the prediction interval) throws.
 */
public final class HeldOutFigures {
    private static final List<Mlx5PublishedFigure> FIGURES = List.of(
            new Mlx5PublishedFigure(Scenario.LM_DOWNTIME_2, UpstreamScenarios.PRE612, 3630, Use.HELD_OUT,
                    Mlx5PublishedFigure.MKEY + ", Downtime #2"),
            new Mlx5PublishedFigure(Scenario.LM_DOWNTIME_2, UpstreamScenarios.V612, 1253, Use.HELD_OUT,
                    Mlx5PublishedFigure.MKEY + ", Downtime #2"));
    /** Depth of {@link #sealed} calls in progress (any thread: the fit may run devices on other threads). */
    private static final AtomicInteger SEALED = new AtomicInteger();

    private HeldOutFigures() {
    }

    /** Runs {@code work} (a fit, a prior, a prediction) with the held-out figures unreadable. */
    public static <T> T sealed(Supplier<T> work) {
        SEALED.incrementAndGet();
        try {
            return work.get();
        } finally {
            SEALED.decrementAndGet();
        }
    }

    /** The before and after figures of a held-out scenario, to score a prediction with. */
    static List<Mlx5PublishedFigure> forScoring(Scenario scenario) {
        if (SEALED.get() > 0) {
            throw new IllegalStateException("a held-out figure (" + scenario + ") was read while a fit, a prior or a prediction "
                    + "was computed");
        }
        List<Mlx5PublishedFigure> f = FIGURES.stream().filter(x -> x.scenario() == scenario).toList();
        if (f.isEmpty()) {
            throw new IllegalArgumentException(scenario + " is not held out");
        }
        return f;
    }
}
