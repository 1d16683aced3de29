package org.vdpactl.mgmt;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.vdpactl.sys.PanamaSyscalls;

/**
 * vdpactl's {@code vdpa -j} view against iproute2's own output on the same kernel (the VM lane,
 * where the {@code vdpa} binary is installed). iproute2's documented glitches are normalised away
 * ({@link Iproute2Vdpa#normalise}) before comparing; everything else must be identical, key order
 * included. The CLI's side of the same comparison is cli.KernelIprouteJsonE2ETest.
 */
@Tag("kernel")
class IprouteJsonKernelTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void mgmtdevShowMatchesIproute2() throws Exception {
        try (VdpaNetlink nl = VdpaNetlink.open(new PanamaSyscalls())) {
            assertSame(Iproute2Vdpa.json("mgmtdev", "show"), IprouteJson.mgmtdevs(nl.mgmtDevices()));
        }
    }

    @Test
    void devShowMatchesIproute2() throws Exception {
        try (VdpaNetlink nl = VdpaNetlink.open(new PanamaSyscalls())) {
            assertSame(Iproute2Vdpa.json("dev", "show"), IprouteJson.devs(nl.devices()));
            assertSame(Iproute2Vdpa.json("dev", "show", "vdpa0"), IprouteJson.devs(List.of(nl.device("vdpa0"))));
        }
    }

    @Test
    void netConfigShowMatchesIproute2() throws Exception {
        try (VdpaNetlink nl = VdpaNetlink.open(new PanamaSyscalls())) {
            assertSame(Iproute2Vdpa.json("dev", "config", "show", "vdpa0"), IprouteJson.configs(List.of(nl.config("vdpa0"))));
        }
    }

    private static void assertSame(JsonNode iproute2, ObjectNode ours) throws IOException {
        JsonNode expected = Iproute2Vdpa.normalise(iproute2);
        JsonNode actual = JSON.readTree(JSON.writeValueAsString(ours));
        assertEquals(expected.toString(), actual.toString());
    }
}
