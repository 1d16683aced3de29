package org.vdpactl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.vdpactl.mgmt.Iproute2Vdpa;

/**
 * The CLI prints iproute2's documents: {@code vdpactl --json X} against {@code vdpa -j Y} on the VM
 * lane's kernel, after {@link Iproute2Vdpa#normalise} (mgmt.IprouteJsonKernelTest compares the
 * renderer itself).
 */
@Tag("kernel")
class KernelIprouteJsonE2ETest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void cliJsonMatchesIproute2() throws Exception {
        String[][] pairs = {
            {"mgmtdev list", "mgmtdev show"},
            {"dev list", "dev show"},
            {"dev config vdpa0", "dev config show vdpa0"},
        };
        for (String[] pair : pairs) {
            String[] cli = ("--backend kernel --json " + pair[0]).split(" ");
            CliRun r = CliRun.of(cli);
            assertEquals(0, r.exitCode(), pair[0] + ": " + r.err());
            JsonNode expected = Iproute2Vdpa.normalise(Iproute2Vdpa.json(pair[1].split(" ")));
            assertEquals(expected.toString(), JSON.readTree(r.out()).toString(), "vdpactl " + pair[0] + " vs vdpa -j " + pair[1]);
        }
    }
}
