package org.vdpactl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The smaller answers of issue 36 item 13, each through the real CLI on the fake: what a bare errno or a quiet
 * default left an operator to guess.
 */
class OperatorHintsTest {
    @TempDir
    Path dir;

    private CliRun fake(String... args) {
        return CliRun.onVirtualFake(dir.resolve("state.json"), args);
    }

    /** mlx5_vdpa takes one device per function: a second dev add got a bare ENOSPC. */
    @Test
    void aSecondDeviceOnAnMlx5FunctionSaysWhyAndWhatToDo() {
        CliRun r = fake("dev", "add", "second", "--mgmtdev", "pci/0000:08:00.2");
        assertEquals(ExitCode.KERNEL_ERROR.code(), r.exitCode(), r.err());
        assertTrue(r.err().contains("ENOSPC"), r.err());
        assertTrue(r.err().contains("no room for another device (mlx5_vdpa takes one per PCI function or SF)")
                && r.err().contains("delete it first, or add the device on another function"), r.err());
        assertEquals(1, r.errorLines(), r.err());
    }

    /** A path on the fake is looked up among the fake's nodes; "cannot stat: ENOENT" alone read as a wrong answer. */
    @Test
    void aPathOnTheFakeSaysItWasLookedUpInTheFakesNamespace() {
        Path hostFile = dir.resolve("not-a-node");
        CliRun r = fake("vhost", "info", hostFile.toString());
        assertEquals(ExitCode.NOT_FOUND.code(), r.exitCode(), r.err());
        assertTrue(r.err().contains(hostFile + ": cannot stat: ENOENT"), r.err());
        assertTrue(r.err().contains("in the fake kernel's namespace (--backend fake looks paths up among its own /dev/vhost-vdpa-N"
                + " nodes, not the host's files"), r.err());
        CliRun rehearse = fake("rehearse", "/dev/vhost-vdpa-77");
        assertTrue(rehearse.err().contains("/dev/vhost-vdpa-77: cannot stat: ENOENT") && rehearse.err().contains("fake kernel's namespace"),
                rehearse.err());
        // a name is no path: nothing to say about namespaces
        CliRun name = fake("vhost", "info", "nosuchdevice");
        assertFalse(name.err().contains("namespace"), name.err());
    }

    /**
     * --fake-state under a missing chain of directories made the whole chain with mode 0700 (as root under sudo): only
     * the state's own directory is made now; a missing directory above it is refused and nothing is created.
     */
    @Test
    void aStateUnderAMissingDirectoryChainIsRefusedAndCreatesNothing() throws Exception {
        Path deep = dir.resolve("missing").resolve("lab").resolve("state.json");
        CliRun r = CliRun.of("--backend", "fake", "--fake-clock", "virtual", "--fake-state", deep.toString(),
                "dev", "add", "x1", "--mgmtdev", "vdpasim_net");
        assertEquals(ExitCode.NOT_FOUND.code(), r.exitCode(), r.err());
        assertTrue(r.err().contains("--fake-state " + deep + ": the directory " + dir.resolve("missing") + " does not exist;"), r.err());
        assertFalse(Files.exists(dir.resolve("missing")), "nothing created");
        assertEquals(1, r.errorLines(), r.err());
        // the state's own directory is still made, private as before
        Path own = dir.resolve("own").resolve("state.json");
        CliRun ok = CliRun.of("--backend", "fake", "--fake-clock", "virtual", "--fake-state", own.toString(),
                "dev", "add", "x1", "--mgmtdev", "vdpasim_net");
        assertEquals(0, ok.exitCode(), ok.err());
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(own.getParent())));
    }

    /**
     * vhost info of vdpasim_blk showed geometry 0/0/0, writeback, secure-erase and zoned fields the device offers no
     * feature for: as for net, only the fields the features make valid (6.12 vdpa_dev_blk_config_fill, virtio 1.2 5.2.4).
     */
    @Test
    void blockConfigFieldsAreShownOnlyWithTheirFeatures() throws Exception {
        CliRun text = fake("vhost", "info", "vdpa1");
        assertEquals(0, text.exitCode(), text.err());
        assertTrue(text.out().contains("capacity:") && text.out().contains("size max:") && text.out().contains("max discard sectors:"),
                text.out());
        for (String absent : List.of("geometry:", "writeback:", "zoned:", "max secure erase sectors:")) {
            assertFalse(text.out().contains(absent), absent + " without its feature: " + text.out());
        }
        CliRun json = fake("-j", "vhost", "info", "vdpa1");
        JsonNode config = new ObjectMapper().readTree(json.out()).path("config");
        assertTrue(config.has("capacity") && config.has("num_queues") && config.has("opt_io_size"), config.toString());
        for (String absent : List.of("geometry", "writeback", "zoned", "max_secure_erase_sectors", "secure_erase_sector_alignment")) {
            assertFalse(config.has(absent), absent + ": " + config);
        }
    }
}
