package org.vdpactl.abi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.vdpactl.abi.json.RecordJson;

/**
 * A profile is a delta over its parent: 7.2.json over 6.12 (what 7.2 adds), 6.1.json over 6.12 (what 6.1
 * lacks). The profile has every fact of its parent that the delta does not change, the delta's own facts,
 * nested objects merged field by field and lists of names changed by "add"/"remove".
 */
class KernelProfileParentTest {
    private static final KernelProfile OLDEST = KernelProfiles.byName("6.1").orElseThrow();
    private static final KernelProfile LTS = KernelProfiles.byName("6.12").orElseThrow();
    private static final KernelProfile NEWEST = KernelProfiles.byName("7.2").orElseThrow();

    @Test
    void theChildInheritsWhatItDoesNotSay() {
        assertEquals(LTS.vhost().ioctls(), NEWEST.vhost().ioctls());
        assertEquals(LTS.netlink(), NEWEST.netlink());
        assertEquals(LTS.configOps(), NEWEST.configOps());
        assertEquals(LTS.drivers(), NEWEST.drivers());
        assertEquals(LTS.vhost().iotlbEntryLimit(), NEWEST.vhost().iotlbEntryLimit());
        assertEquals(LTS.netlink().requestPolicy(), OLDEST.netlink().requestPolicy(), "6.1's vdpa_nl_policy is 6.12's");
        assertEquals(LTS.vhost().backendFeaturesOffered(), OLDEST.vhost().backendFeaturesOffered());
    }

    @Test
    void theChildsOwnFactsWinAndNestedObjectsMerge() {
        assertEquals("7.2", NEWEST.version());
        assertTrue(NEWEST.answersTo("sid") && !NEWEST.answersTo("lts"));
        assertFalse(LTS.vhost().groupAsidBusyAfterDriverOk());
        assertTrue(NEWEST.vhost().groupAsidBusyAfterDriverOk(), "7.2's one vhost difference (vdpa.c's busy check)");
        assertEquals(LTS.vhost().pinnedRuns().scatteredUpToPages(), NEWEST.vhost().pinnedRuns().scatteredUpToPages());
        assertTrue(NEWEST.vhost().pinnedRuns().source().contains("7.2.13"), NEWEST.vhost().pinnedRuns().source());
        assertEquals(63, OLDEST.vhost().pinnedRuns().scatteredUpToPages());
        assertEquals(2, OLDEST.drivers().size(), "6.1's simulator deltas, over 6.12's none");
    }

    /** 6.1 is 6.12 minus what came after it, in 6.12's order: the lists the fake dispatches on. */
    @Test
    void theOlderKernelIsItsParentMinusWhatCameLater() {
        List<UapiIoctl> ioctls = new ArrayList<>(LTS.vhost().ioctls());
        ioctls.removeAll(List.of(UapiIoctl.VHOST_VDPA_RESUME, UapiIoctl.VHOST_VDPA_GET_VRING_DESC_GROUP,
                UapiIoctl.VHOST_VDPA_GET_VRING_SIZE, UapiIoctl.VHOST_SET_FORK_FROM_OWNER, UapiIoctl.VHOST_GET_FORK_FROM_OWNER));
        assertEquals(ioctls, OLDEST.vhost().ioctls());
        assertEquals(List.of("suspend"), OLDEST.configOps());
        assertEquals(List.of("VIRTIO_ID_BLOCK"), OLDEST.vduseClasses());
        assertEquals(LTS.netlink().commands().subList(0, LTS.netlink().commands().size() - 1), OLDEST.netlink().commands());
        assertEquals(List.of("VHOST_BACKEND_F_IOTLB_MSG_V2", "VHOST_BACKEND_F_IOTLB_BATCH", "VHOST_BACKEND_F_IOTLB_ASID",
                "VHOST_BACKEND_F_SUSPEND"), OLDEST.vhost().backendFeaturesAccepted());
        assertEquals(22, OLDEST.netlink().maxAttr());
    }

    @Test
    void aListChangesByAddAndRemove() throws Exception {
        Map<String, Object> base = tree("{\"l\": [\"a\", \"b\", \"c\"], \"o\": {\"l\": [\"x\"], \"k\": 1}}");
        Map<String, Object> out = KernelProfiles.overlay(base, tree("{\"l\": {\"remove\": [\"b\"], \"add\": [\"d\"]}, \"o\": {\"l\": {\"add\": [\"y\"]}}}"));
        assertEquals(tree("{\"l\": [\"a\", \"c\", \"d\"], \"o\": {\"l\": [\"x\", \"y\"], \"k\": 1}}"), out);
        assertEquals(tree("{\"l\": [\"z\"]}"), KernelProfiles.overlay(tree("{\"l\": [\"a\"]}"), tree("{\"l\": [\"z\"]}")),
                "a plain list replaces the parent's");
    }

    /** A misspelt name in a delta would silently keep a fact the kernel lacks: refused, naming the list. */
    @Test
    void aDeltaThatRemovesWhatTheParentLacksOrAddsWhatItHasIsRefused() {
        IllegalArgumentException gone = assertThrows(IllegalArgumentException.class,
                () -> KernelProfiles.overlay(tree("{\"l\": [\"a\"]}"), tree("{\"l\": {\"remove\": [\"VHOST_VDPA_RESUM\"]}}")));
        assertEquals("l: removes \"VHOST_VDPA_RESUM\", which the parent does not have", gone.getMessage());
        IllegalArgumentException twice = assertThrows(IllegalArgumentException.class,
                () -> KernelProfiles.overlay(tree("{\"l\": [\"a\"]}"), tree("{\"l\": {\"add\": [\"a\"]}}")));
        assertEquals("l: adds \"a\", which the parent already has", twice.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> KernelProfiles.overlay(tree("{\"l\": [\"a\"]}"), tree("{\"l\": {\"drop\": [\"a\"]}}")));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> tree(String json) {
        return (Map<String, Object>) RecordJson.tree(json.getBytes(StandardCharsets.UTF_8));
    }
}
