package org.vdpactl.report.fleet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Nearest-rank spread of one figure across hosts. */
class SpreadTest {
    @Test
    void tenHostsGiveNearestRankPercentilesAndTheSlowestHost() {
        Map<String, Double> v = new LinkedHashMap<>();
        for (int i = 10; i >= 1; i--) {
            v.put("h" + i, i * 10.0);
        }
        Spread s = Spread.of("suspend", v);
        assertEquals(10, s.hosts());
        assertEquals(10.0, s.minMs());
        assertEquals(50.0, s.p50Ms(), "rank ceil(0.5*10) = 5th smallest");
        assertEquals(90.0, s.p90Ms(), "rank ceil(0.9*10) = 9th smallest");
        assertEquals(100.0, s.maxMs());
        assertEquals(55.0, s.meanMs(), 1e-12);
        assertEquals("h10", s.slowestHost());
    }

    @Test
    void oneHostIsItsOwnEveryPercentileAndNoHostIsNoSpread() {
        Spread s = Spread.of("resume", Map.of("only", 2.5));
        assertEquals(2.5, s.p50Ms());
        assertEquals(2.5, s.p90Ms());
        assertEquals("only", s.slowestHost());
        assertNull(Spread.of("resume", Map.of()));
    }

    @Test
    void aTieForTheSlowestNamesTheFirstOfThemByName() {
        Map<String, Double> v = new LinkedHashMap<>();
        v.put("c", 1.0);
        v.put("b", 3.0);
        v.put("a", 3.0);
        assertEquals("a", Spread.of("x", v).slowestHost());
    }

    @Test
    void whenEveryHostTiesNoHostIsTheSlowest() {
        Map<String, Double> v = new LinkedHashMap<>();
        v.put("b", 3.0);
        v.put("a", 3.0);
        assertNull(Spread.of("x", v).slowestHost());
        assertEquals("- (all tie)", FleetText.slowestHost(Spread.of("x", v)));
    }
}
