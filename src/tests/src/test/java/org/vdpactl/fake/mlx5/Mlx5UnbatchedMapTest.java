package org.vdpactl.fake.mlx5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.vdpactl.fake.model.MapEntry;
import org.vdpactl.sim.UpstreamScenarios;

/** §2.3: without BATCH_BEGIN/END every message rebuilds the whole MR, so R regions cost ∝ R². */
class Mlx5UnbatchedMapTest {
    private static final long GIB = 1L << 30;

    private static List<MapEntry> regions(int r) {
        List<MapEntry> l = new ArrayList<>();
        for (int i = 0; i < r; i++) {
            // one 4 KiB run per GiB keeps the entity size at 4 KiB, like the scenarios
            l.add(new MapEntry(i * GIB, 4096, 0x10_0000_0000L * i, 3));
            l.add(new MapEntry(i * GIB + 4096, GIB - 4096, 0x10_0000_0000L * i + 8192, 3));
        }
        return l;
    }

    private static double unbatched(Mlx5Preset preset, int r) {
        Mlx5Device d = UpstreamScenarios.added(preset);
        List<MapEntry> all = regions(r);
        double ms = 0;
        for (int k = 1; k <= r; k++) {
            ms += d.setMap(1, all.subList(0, 2 * k)).millis();
        }
        return ms;
    }

    private static double batched(Mlx5Preset preset, int r) {
        return UpstreamScenarios.added(preset).setMap(1, regions(r)).millis();
    }

    @Test
    void unbatchedUpdatesAreQuadratic() {
        for (String name : List.of("mlx5-pre612", "mlx5-612")) {
            Mlx5Preset p = Mlx5Presets.preset(name);
            double[] u = new double[12];
            for (int r = 1; r < u.length; r++) {
                u[r] = unbatched(p, r);
            }
            // a constant, positive second difference is quadratic growth
            double d2 = u[3] - 2 * u[2] + u[1];
            assertTrue(d2 > 1, name + ": second difference " + d2);
            for (int r = 2; r < u.length - 1; r++) {
                assertEquals(d2, u[r + 1] - 2 * u[r] + u[r - 1], 1e-3, name + " at R=" + r);
            }
            // while one batched map of the same regions grows by a constant step (affine)
            double step = batched(p, 2) - batched(p, 1);
            for (int r = 2; r < u.length; r++) {
                assertEquals(step, batched(p, r + 1) - batched(p, r), 1e-3, name + " batched at R=" + r);
            }
            assertTrue(u[11] > 5 * batched(p, 11), name + ": 11 unbatched regions cost far more than one batch");
        }
    }

    @Test
    void pre612PaysEveryBuildAndEveryRelease() {
        Mlx5Preset pre = Mlx5Presets.preset("mlx5-pre612");
        int r = 8;
        double sumBuilds = 0;
        double sumReleases = 0;
        for (int k = 1; k <= r; k++) {
            sumBuilds += batched(pre, k);
            if (k < r) {
                Mlx5Device d = UpstreamScenarios.added(pre);
                d.setMap(1, regions(k));
                sumReleases += d.setMap(1, List.of()).millis();
            }
        }
        assertEquals(sumBuilds + sumReleases, unbatched(pre, r), 1e-6);
    }
}
