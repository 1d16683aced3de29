package org.vdpactl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A hand-edited state file is read as written or refused with the line and column: a second
 * "devices" key emptied the device list (and the next dev add saved the loss), a second "name"
 * renamed vdpa0, text after the document, 0.7 for a minor, 1500.9 for an MTU and "1" for the version
 * were all accepted.
 */
class HandEditedStateTest {
    @TempDir
    Path dir;

    private static final String GOOD = """
            {
              "version" : 1,
              "mgmtdevs" : [ { "profile" : "vdpasim_net", "dev" : "vdpasim_net" } ],
              "devices" : [ { "name" : "vdpa0", "mgmtdev" : "vdpasim_net", "minor" : 0 } ]
            }
            """;

    private void assertRefused(String state, String problem, String at) throws Exception {
        Path file = Files.writeString(dir.resolve("s.json"), state);
        CliRun r = CliRun.onFake(file, "dev", "add", "x1", "--mgmtdev", "vdpasim_net");
        assertEquals(ExitCode.USAGE.code(), r.exitCode(), r.err());
        assertTrue(r.err().contains(problem) && r.err().contains(at), "wanted " + problem + " " + at + ": " + r.err());
        assertEquals(state, Files.readString(file), "nothing saved");
    }

    @Test
    void theGoodStateIsRead() throws Exception {
        Path file = Files.writeString(dir.resolve("s.json"), GOOD);
        CliRun r = CliRun.onFake(file, "dev", "list");
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(r.out().startsWith("vdpa0:"), r.out());
    }

    @Test
    void duplicateKeysAreRefused() throws Exception {
        assertRefused(GOOD.replace("\n}", ",\n  \"devices\" : [ ]\n}"), "Duplicate field 'devices'", "at line 5");
        assertRefused(GOOD.replace("\"minor\" : 0", "\"minor\" : 0, \"name\" : \"evil\""), "Duplicate field 'name'", "at line 4");
    }

    @Test
    void textAfterTheDocumentIsRefused() throws Exception {
        assertRefused(GOOD + "{}\n", "Trailing token", "at line 6");
    }

    @Test
    void fractionsAndStringsForNumbersAreRefused() throws Exception {
        assertRefused(GOOD.replace("\"minor\" : 0", "\"minor\" : 0.7"), "minor", "at line 4");
        assertRefused(GOOD.replace("\"minor\" : 0", "\"minor\" : 0, \"mtu\" : 1500.9"), "mtu", "at line 4");
        assertRefused(GOOD.replace("\"version\" : 1", "\"version\" : \"1\""), "version", "at line 2");
    }

    /**
     * The fake makes an mlx5 device's latency model on its first use (start-up: a listing never reaches it), but what
     * the model would refuse is checked when the state is read: a hand-edited unknown preset still fails a command
     * that only lists devices, as it did when every model was made at load.
     */
    @Test
    void anUnknownMlx5PresetIsRefusedWhenTheStateIsReadEvenByAListing() throws Exception {
        String state = """
                {
                  "version" : 1,
                  "mgmtdevs" : [ { "profile" : "mlx5", "bus" : "pci", "dev" : "0000:08:00.2", "preset" : "mlx5-none" } ],
                  "devices" : [ { "name" : "m0", "mgmtdev" : "pci/0000:08:00.2", "minor" : 0 } ]
                }
                """;
        Path file = Files.writeString(dir.resolve("s.json"), state);
        CliRun r = CliRun.onFake(file, "dev", "list");
        assertEquals(ExitCode.USAGE.code(), r.exitCode(), r.err());
        assertTrue(r.err().contains("unknown mlx5 preset 'mlx5-none'"), r.err());
        assertEquals("", r.out());
        assertEquals(state, Files.readString(file), "nothing saved");
    }
}
