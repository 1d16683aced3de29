package org.vdpactl.fake.mlx5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.vdpactl.fake.model.DriverModel;

/** Presets are data (§4.3), parameters are named (§4.2), jitter is optional and seeded. */
class Mlx5PresetsTest {

    @Test
    void threePresetsOldestFirst() {
        assertEquals(List.of("mlx5-pre612", "mlx5-611", "mlx5-612"), new ArrayList<>(Mlx5Presets.names()));
        assertInstanceOf(Mlx5Device.class, Mlx5Presets.create("mlx5-612", 4));
        assertEquals(8, ((Mlx5Device) Mlx5Presets.create("mlx5-612", 4)).dataVqs());
    }

    @Test
    void unknownPresetListsTheKnownOnes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Mlx5Presets.create("mlx5-999", 1));
        for (String n : Mlx5Presets.names()) {
            assertTrue(e.getMessage().contains(n), e.getMessage());
        }
    }

    @Test
    void presetsShareEveryParameterAndDifferOnlyInFlags() {
        for (String n : Mlx5Presets.names()) {
            assertEquals(Mlx5Params.DEFAULT, Mlx5Presets.preset(n).params());
        }
        assertEquals(Mlx5Features.PRE_612, Mlx5Presets.preset("mlx5-pre612").features());
        assertEquals(Mlx5Features.V611, Mlx5Presets.preset("mlx5-611").features());
        assertEquals(Mlx5Features.V612, Mlx5Presets.preset("mlx5-612").features());
        assertEquals(Mlx5Features.UNLIMITED, Mlx5Features.PRE_612.reclaimCapPages());
        assertEquals(50_000, Mlx5Features.V612.reclaimCapPages());
    }

    @Test
    void eachModelIsItsOwnDevice() {
        DriverModel a = Mlx5Presets.create("mlx5-612", 1);
        DriverModel b = Mlx5Presets.create("mlx5-612", 1);
        assertNotEquals(a, b);
    }

    @Test
    void parametersAreReachableByName() {
        assertEquals(3, Mlx5Params.DEFAULT.get("fwConcurrencyObj"));
        assertEquals(26.3, Mlx5Params.DEFAULT.get("notifierUnregisterMs"));
        Mlx5Params p = Mlx5Params.DEFAULT.with("fwConcurrencyObj", 6).with("roundTripMs", 0.1);
        assertEquals(6, p.fwConcurrencyObj());
        assertEquals(0.1, p.roundTripMs());
        assertEquals(Mlx5Params.DEFAULT.createVqMs(), p.createVqMs());
        assertTrue(Mlx5Params.names().contains("destroyMkeyPerMttNs"));
        assertThrows(IllegalArgumentException.class, () -> Mlx5Params.DEFAULT.with("nope", 1));
        assertThrows(IllegalArgumentException.class, () -> Mlx5Params.DEFAULT.with("cmdSlots", 1.5));
        assertThrows(IllegalArgumentException.class, () -> Mlx5Params.DEFAULT.with("throttleSlots", 64));
    }

    @Test
    void aParameterChangeMovesTheResult() {
        Mlx5Preset v612 = Mlx5Presets.preset("mlx5-612");
        double base = Mlx5Scenarios.resume(v612).driverMs();
        double faster = Mlx5Scenarios.resume(v612.withParams(v612.params().with("fwConcurrencyObj", 6))).driverMs();
        assertEquals(0.05 + 0.02 + 6 * Mlx5Params.DEFAULT.modifyRdyMs(), faster, 1e-9, "32 commands on 6 servers: 6 rounds, last one of 2");
        assertTrue(faster < base);
    }

    @Test
    void jitterIsOffByDefaultSeededAndHasMedianOne() {
        CommandQueue exact = new CommandQueue(Mlx5Params.DEFAULT);
        FwCommand c = new FwCommand(FwOpcode.QUERY_GENERAL_OBJECT, "q", 1.0, 0);
        assertEquals(1.06, exact.sync(c).durationMs(), 1e-12);

        Mlx5Params jittery = Mlx5Params.DEFAULT.with("jitterSigma", 0.3).with("jitterSeed", 42);
        CommandQueue a = new CommandQueue(jittery);
        CommandQueue b = new CommandQueue(jittery);
        double[] s = new double[20_001];
        for (int i = 0; i < s.length; i++) {
            s[i] = a.sync(c).durationMs() - 0.06;
            assertEquals(s[i] + 0.06, b.sync(c).durationMs(), 1e-12, "same seed, same draws");
        }
        java.util.Arrays.sort(s);
        assertEquals(1.0, s[s.length / 2], 0.02, "median factor 1");
        assertTrue(s[0] < 0.5 && s[s.length - 1] > 2, "log-normal spread");

        double other = new CommandQueue(jittery.with("jitterSeed", 43)).sync(c).durationMs();
        assertNotEquals(new CommandQueue(jittery).sync(c).durationMs(), other);
    }

    @Test
    void pageReclaimIsCappedAt50kPagesFrom612() {
        PageReclaim before = Mlx5Presets.device("mlx5-pre612", 1).fwRequestsPageReclaim(1_300_000);
        PageReclaim after = Mlx5Presets.device("mlx5-612", 1).fwRequestsPageReclaim(1_300_000);
        assertEquals(1, before.requests());
        assertEquals(20_313, before.blocksPerRequest().getFirst(), "published: around 20K blocks");
        assertEquals(26, after.requests());
        assertEquals(782, after.blocksPerRequest().getFirst(), "published: around 800 blocks");
        assertEquals(20_313 * 24e-3, before.hostMs(), 1e-6, "≈0.5 s in one work item");
        assertEquals(26 * 782 * 1.5e-3, after.hostMs(), 1e-6, "≈1.2 ms per request");
    }
}
