package org.vdpactl.lane;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.vdpactl.RepositoryRoot;
import org.vdpactl.abi.KernelProfile;
import org.vdpactl.abi.KernelProfiles;

/**
 * scripts/vm/lane-matrix.tsv is the one list of the lane's kernels: every fake kernel profile has its lane
 * kernel there, each line names a profile that exists and the source package that profile was read from,
 * and the bash reader the scripts share (scripts/lib/kernel-source.sh) sees the same kernels as this one.
 */
class LaneMatrixTest {
    /** One kernel line: the columns of the file's header. */
    record Lane(String id, String profile, String pkg, String suite, String role) {
    }

    static List<Lane> lanes() throws IOException {
        return Files.readAllLines(RepositoryRoot.find().resolve("scripts/vm/lane-matrix.tsv")).stream()
                .map(String::strip)
                .filter(l -> !l.isEmpty() && !l.startsWith("#"))
                .map(l -> l.split("\\s+"))
                .map(c -> {
                    assertEquals(5, c.length, "five columns: " + String.join(" ", c));
                    return new Lane(c[0], c[1], c[2], c[3], c[4]);
                })
                .toList();
    }

    @Test
    void everyKernelProfileHasItsLaneKernelInProfileOrder() throws IOException {
        assertEquals(KernelProfiles.VERSIONS, lanes().stream().map(Lane::profile).toList(),
                "the matrix's profiles, oldest first, are the fake's profiles");
        assertEquals(lanes().size(), lanes().stream().map(Lane::id).distinct().count(), "lane ids are unique");
    }

    @Test
    void oneKernelIsTheDefaultAndItIsTheFakesDefaultProfile() throws IOException {
        List<Lane> defaults = lanes().stream().filter(l -> l.role().equals("default")).toList();
        assertEquals(1, defaults.size(), "exactly one default kernel: " + defaults);
        assertEquals(KernelProfiles.DEFAULT_VERSION, defaults.getFirst().profile());
        assertTrue(lanes().stream().allMatch(l -> l.role().equals("default") || l.role().equals("-")), "roles: default or -");
    }

    /** The package a kernel is built from is the one its profile's facts were read from ("Debian linux-source-6.12 …"). */
    @Test
    void eachLaneKernelIsBuiltFromTheSourceItsProfileWasReadFrom() throws IOException {
        for (Lane l : lanes()) {
            KernelProfile p = KernelProfiles.byName(l.profile()).orElseThrow();
            switch (l.suite()) {
                case "host" -> assertTrue(p.source().startsWith("Debian " + l.pkg() + " "), l + " vs " + p.source());
                case "unstable" -> assertTrue(p.source().startsWith("Debian " + l.pkg() + "-" + p.version() + " ")
                        && p.source().contains("(unstable)"), l + " vs " + p.source());
                default -> throw new AssertionError("suite host or unstable: " + l);
            }
        }
    }

    @Test
    void theScriptsReadTheSameKernels() throws Exception {
        List<Lane> lanes = lanes();
        assertEquals(lanes.stream().map(Lane::id).toList(), bash("vdpactl_lane_kernel_ids").lines().toList());
        assertEquals(lanes.stream().filter(l -> l.role().equals("default")).map(Lane::id).toList(),
                bash("vdpactl_lane_default_kernel").lines().toList());
        for (Lane l : lanes) {
            assertEquals(l.profile(), bash("vdpactl_lane_matrix_get " + l.id() + " profile").strip());
        }
        String known = String.join(", ", lanes.stream().map(Lane::id).toList());
        assertEquals("kernel-source: unknown lane kernel '5.4' (known: " + known + ")\nstatus 1\n",
                bash("VDPACTL_LANE_KERNEL=5.4 vdpactl_lane_kernel; echo status $?"));
    }

    private static String bash(String script) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("bash", "-c", ". scripts/lib/kernel-source.sh; " + script)
                .directory(RepositoryRoot.find().toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), script + " did not finish");
        assertEquals(0, p.exitValue(), script + ": " + out);
        return out;
    }
}
