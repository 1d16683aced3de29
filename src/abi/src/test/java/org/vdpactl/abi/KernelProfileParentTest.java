package org.vdpactl.abi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * 7.2.json is a delta over its parent 6.12: the profile has every fact of 6.12 that the delta does not
 * change, the delta's own facts, and nested objects merged field by field.
 */
class KernelProfileParentTest {
    private static final KernelProfile LTS = KernelProfiles.byName("6.12").orElseThrow();
    private static final KernelProfile NEWEST = KernelProfiles.byName("7.2").orElseThrow();

    @Test
    void theChildInheritsWhatItDoesNotSay() {
        assertEquals(LTS.vhost().ioctls(), NEWEST.vhost().ioctls());
        assertEquals(LTS.netlink(), NEWEST.netlink());
        assertEquals(LTS.configOps(), NEWEST.configOps());
        assertEquals(LTS.drivers(), NEWEST.drivers());
        assertEquals(LTS.vhost().iotlbEntryLimit(), NEWEST.vhost().iotlbEntryLimit());
    }

    @Test
    void theChildsOwnFactsWinAndNestedObjectsMerge() {
        assertEquals("7.2", NEWEST.version());
        assertTrue(NEWEST.answersTo("sid") && !NEWEST.answersTo("lts"));
        assertFalse(LTS.vhost().groupAsidBusyAfterDriverOk());
        assertTrue(NEWEST.vhost().groupAsidBusyAfterDriverOk(), "7.2's one vhost difference (vdpa.c's busy check)");
        assertEquals(LTS.vhost().pinnedRuns().scatteredUpToPages(), NEWEST.vhost().pinnedRuns().scatteredUpToPages());
        assertTrue(NEWEST.vhost().pinnedRuns().source().contains("7.2.13"), NEWEST.vhost().pinnedRuns().source());
    }
}
