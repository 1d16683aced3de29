package org.vdpactl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An output file that is an input of the run is refused before the run: {@code rehearse --report
 * s.json} wrote the HTML report over the fake's state file (every device gone, every later command
 * exit 2).
 */
class OutputIsAnInputTest {
    @TempDir
    Path dir;

    private void assertRefused(CliRun r, String what) {
        assertEquals(ExitCode.USAGE.code(), r.exitCode(), what + ": " + r.err());
        assertTrue(r.err().contains("is ") && r.err().contains("an input of this run"), what + ": " + r.err());
        assertEquals(1, r.errorLines(), what + ": " + r.err());
    }

    @Test
    void theReportCannotBeTheStateFileByNameOrByLink() throws Exception {
        Path state = dir.resolve("s.json");
        assertEquals(0, RehearseReliabilityTest.onVirtualFake(state, "dev", "add", "x1", "--mgmtdev", "vdpasim_net").exitCode());
        String before = Files.readString(state);
        assertRefused(RehearseReliabilityTest.onVirtualFake(state, "rehearse", "--report", state.toString()), "the state");
        Path link = Files.createSymbolicLink(dir.resolve("link.html"), state);
        assertRefused(RehearseReliabilityTest.onVirtualFake(state, "rehearse", "--report", link.toString()), "a link to the state");
        assertRefused(RehearseReliabilityTest.onVirtualFake(state, "rehearse", "--report", dir.resolve("s.json.lock").toString()),
                "the state's lock");
        assertEquals(before, Files.readString(state), "the state is intact");
        assertEquals(0, RehearseReliabilityTest.onVirtualFake(state, "dev", "show", "x1").exitCode(), "x1 is still there");
    }

    @Test
    void theReportCannotBeTheFaultRulesOrTheMemoryLayout() throws Exception {
        Path state = dir.resolve("s.json");
        Path faults = Files.writeString(dir.resolve("f.json"), "[]");
        assertRefused(RehearseReliabilityTest.onVirtualFake(state, "--fake-faults", faults.toString(), "rehearse", "--report",
                faults.toString()), "the fault rules");
        assertEquals("[]", Files.readString(faults));
        String regions = "{\"regions\":[{\"iova\":0,\"size\":1073741824}]}";
        Path layout = Files.writeString(dir.resolve("layout.json"), regions);
        assertRefused(RehearseReliabilityTest.onVirtualFake(state, "rehearse", "--memory-layout", layout.toString(), "--report",
                layout.toString()), "the memory layout");
        assertEquals(regions, Files.readString(layout));
    }

    @Test
    void theFleetPageCannotBeAMergedDocument() throws Exception {
        Path state = dir.resolve("s.json");
        Path doc = dir.resolve("host1.json");
        CliRun r = RehearseReliabilityTest.onVirtualFake(state, "--json", "rehearse", "--devices", "1");
        Files.writeString(doc, r.out());
        assertRefused(RehearseReliabilityTest.onVirtualFake(state, "report", "merge", "--html", doc.toString(), doc.toString()),
                "a merged document");
        assertEquals(r.out(), Files.readString(doc));
    }
}
