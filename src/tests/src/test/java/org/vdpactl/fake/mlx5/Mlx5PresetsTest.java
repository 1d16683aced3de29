package org.vdpactl.fake.mlx5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.vdpactl.fake.model.OpCost;
import org.vdpactl.sim.UpstreamScenarios;

/** Presets are data (§4.3), parameters are named (§4.2), jitter is optional and seeded. */
class Mlx5PresetsTest {

    @Test
    void fourPresetsOldestFirst() {
        assertEquals(List.of("mlx5-61", "mlx5-pre612", "mlx5-611", "mlx5-612"), new ArrayList<>(Mlx5Presets.names()));
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

    /**
     * A preset is data (§4.3): one set of parameters for all, and each newer kernel keeps every
     * behaviour flag of the older one, turns at least one more on, and never raises the reclaim cap.
     */
    @Test
    void presetsShareTheParametersAndEachNewerKernelAddsFlags() {
        List<Mlx5Preset> presets = Mlx5Presets.names().stream().map(Mlx5Presets::preset).toList();
        for (Mlx5Preset p : presets) {
            assertEquals(presets.getFirst().params(), p.params(), p.name() + " has the shared parameters");
        }
        for (int i = 1; i < presets.size(); i++) {
            Mlx5Preset older = presets.get(i - 1);
            Mlx5Preset newer = presets.get(i);
            Map<String, Boolean> olderFlags = flags(older.features());
            Map<String, Boolean> newerFlags = flags(newer.features());
            olderFlags.forEach((flag, on) -> assertTrue(!on || newerFlags.get(flag),
                    newer.name() + " keeps " + flag + " of " + older.name()));
            assertNotEquals(olderFlags, newerFlags, newer.name() + " changes some behaviour of " + older.name());
            assertTrue(newer.features().reclaimCapPages() <= older.features().reclaimCapPages(), newer.name());
        }
    }

    private static Map<String, Boolean> flags(Mlx5Features f) {
        Map<String, Boolean> out = new TreeMap<>();
        for (RecordComponent c : Mlx5Features.class.getRecordComponents()) {
            if (c.getType() == boolean.class) {
                try {
                    out.put(c.getName(), (Boolean) c.getAccessor().invoke(f));
                } catch (ReflectiveOperationException e) {
                    throw new AssertionError(e);
                }
            }
        }
        return out;
    }

    /** The flags are what the model does: 6.12 keeps the link notifier across suspend, older kernels drop it. */
    @Test
    void suspendKeepsTheNotifierExactlyWhenThePresetSaysSo() {
        for (String name : Mlx5Presets.names()) {
            Mlx5Preset preset = Mlx5Presets.preset(name);
            Mlx5Device d = UpstreamScenarios.running(preset);
            assertTrue(d.notifierRegistered(), name + " registers the notifier at DRIVER_OK");
            d.suspend();
            assertEquals(preset.features().keepNotifierOnSuspend(), d.notifierRegistered(), name);
            if (!d.hasResumeOp()) {
                continue; // 6.1: no .resume op
            }
            d.resume();
            assertTrue(d.notifierRegistered(), name + " registers it again at resume");
        }
    }

    /**
     * Newer kernels never make suspend or resume slower, and 6.12's asynchronous VQ commands (several
     * served at once by the firmware) at least halve 6.11's serial ones on 32 VQs.
     */
    @Test
    void suspendAndResumeGetFasterWithEachKernel() {
        List<Mlx5Preset> presets = Mlx5Presets.names().stream().map(Mlx5Presets::preset).toList();
        for (int i = 1; i < presets.size(); i++) {
            Mlx5Preset older = presets.get(i - 1);
            Mlx5Preset newer = presets.get(i);
            assertTrue(UpstreamScenarios.suspend(newer).driverMs() <= UpstreamScenarios.suspend(older).driverMs() + 1e-9,
                    "suspend " + newer.name() + " vs " + older.name());
            if (!older.features().mapPerAsid()) {
                continue; // 6.1 has no .resume op to compare
            }
            assertTrue(UpstreamScenarios.resume(newer).driverMs() <= UpstreamScenarios.resume(older).driverMs() + 1e-9,
                    "resume " + newer.name() + " vs " + older.name());
        }
        Mlx5Preset v611 = Mlx5Presets.preset("mlx5-611");
        Mlx5Preset v612 = Mlx5Presets.preset("mlx5-612");
        assertTrue(2 * UpstreamScenarios.suspend(v612).driverMs() < UpstreamScenarios.suspend(v611).driverMs(),
                "6.12 suspends 32 VQs in less than half of 6.11's time");
        assertTrue(2 * UpstreamScenarios.resume(v612).driverMs() < UpstreamScenarios.resume(v611).driverMs(),
                "6.12 resumes 32 VQs in less than half of 6.11's time");
    }

    /** Two devices of one preset share no state: suspending one leaves the other running, at the same cost. */
    @Test
    void eachModelIsItsOwnDevice() {
        Mlx5Device a = bringUp(Mlx5Presets.device("mlx5-612", UpstreamScenarios.PAIRS));
        Mlx5Device b = bringUp(Mlx5Presets.device("mlx5-612", UpstreamScenarios.PAIRS));
        OpCost aSuspend = a.suspend();
        assertTrue(a.suspended());
        assertFalse(b.suspended(), "suspending one device suspended the other");
        assertEquals(UpstreamScenarios.STATUS_RUNNING, b.status());
        assertEquals(aSuspend, b.suspend(), "the second device's suspend costs what the first one's did");
    }

    private static Mlx5Device bringUp(Mlx5Device d) {
        d.devAdd(UpstreamScenarios.DATA_VQS);
        d.setMap(0, UpstreamScenarios.guestMemory(4096));
        UpstreamScenarios.configure(d);
        d.setStatus(UpstreamScenarios.STATUS_FEATURES_OK, UpstreamScenarios.STATUS_RUNNING);
        d.changeNumQueuePairs(UpstreamScenarios.PAIRS);
        return d;
    }

    /** get/with by name agree with the record's accessors, and with(name) changes that parameter only. */
    @Test
    void parametersAreReachableByName() {
        assertEquals(Mlx5Params.DEFAULT.fwConcurrencyObj(), Mlx5Params.DEFAULT.get("fwConcurrencyObj"));
        assertEquals(Mlx5Params.DEFAULT.notifierUnregisterMs(), Mlx5Params.DEFAULT.get("notifierUnregisterMs"));
        Mlx5Params p = Mlx5Params.DEFAULT.with("fwConcurrencyObj", 6).with("roundTripMs", 0.1);
        assertEquals(6, p.fwConcurrencyObj());
        assertEquals(0.1, p.roundTripMs());
        assertEquals(Mlx5Params.DEFAULT.createVqMs(), p.createVqMs());
        for (String name : Mlx5Params.names()) {
            double changed = Mlx5Params.DEFAULT.get(name) + 1;
            Mlx5Params q = Mlx5Params.DEFAULT.with(name, changed);
            for (String other : Mlx5Params.names()) {
                assertEquals(other.equals(name) ? changed : Mlx5Params.DEFAULT.get(other), q.get(other),
                        "with(" + name + ") then get(" + other + ")");
            }
        }
        assertThrows(IllegalArgumentException.class, () -> Mlx5Params.DEFAULT.with("nope", 1));
        assertThrows(IllegalArgumentException.class, () -> Mlx5Params.DEFAULT.with("cmdSlots", 1.5));
        assertThrows(IllegalArgumentException.class, () -> Mlx5Params.DEFAULT.with("throttleSlots", 64));
    }

    @Test
    void aParameterChangeMovesTheResult() {
        Mlx5Preset v612 = Mlx5Presets.preset("mlx5-612");
        double base = UpstreamScenarios.resume(v612).driverMs();
        double faster = UpstreamScenarios.resume(v612.withParams(v612.params().with("fwConcurrencyObj", 6))).driverMs();
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
        Arrays.sort(s);
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
