package org.vdpactl.lane;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.vdpactl.conformance.device.RunningKernel;
import org.vdpactl.abi.UapiVdpaAttribute;
import org.vdpactl.sys.PanamaSyscalls;

/**
 * The real-kernel lane's feature probe: records which vhost-vdpa ioctls, backend-feature bits and
 * vdpa netlink commands/attributes the booted kernel has (FeatureProbe explains how each is judged)
 * into the JSON file named by VDPACTL_PROBE_OUT (scripts/vm-lane sets target/lane/KERNEL/features.json;
 * scripts/lane-report turns those files into docs/kernel-matrix.md). Tag "kernel": only the VM lane
 * runs it. FakeFeatureProbeTest runs the same probe against the fake kernel.
 */
@Tag("kernel")
class KernelFeatureProbeTest {

    @BeforeAll
    static void onlyInTheVm() {
        LaneOnly.requireVm();
    }

    @Test
    @SuppressWarnings("unchecked")
    void probeTheBootedKernelAndWriteItsFeatureFile() throws Exception {
        Map<String, Object> found = new FeatureProbe(new PanamaSyscalls()).probe("/dev/vhost-vdpa-0", "/dev/vhost-vdpa-1");
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("backend", "kernel");
        doc.put("kernel_release", Files.readString(Path.of("/proc/sys/kernel/osrelease"), StandardCharsets.US_ASCII).trim());
        doc.putAll(found);
        Path out = Path.of(System.getenv().getOrDefault("VDPACTL_PROBE_OUT", "target/lane/probe/features.json"));
        Files.createDirectories(out.toAbsolutePath().getParent());
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(out.toFile(), doc);

        // Facts every kernel of the matrix shares; a probe that misjudges them is broken.
        Map<String, Object> ioctls = (Map<String, Object>) found.get("ioctls");
        assertEquals(Boolean.TRUE, ((Map<String, Object>) ioctls.get("VHOST_GET_FEATURES")).get("present"));
        assertEquals(Boolean.TRUE, ((Map<String, Object>) ioctls.get("VHOST_VDPA_GET_DEVICE_ID")).get("present"));
        Map<String, Object> unknown = (Map<String, Object>) found.get("unknown_ioctl");
        assertEquals("ENOTTY", unknown.get("owner_vring_0"), "an ioctl no kernel defines, after SET_OWNER");
        Map<String, Object> commands = (Map<String, Object>) ((Map<String, Object>) found.get("netlink")).get("commands");
        assertEquals(Boolean.TRUE, ((Map<String, Object>) commands.get("VDPA_CMD_DEV_NEW")).get("present"));
        // Every lane kernel (6.1 and later) answers nlctrl's policy dump (Linux 5.10+): DEV_NEW's
        // request attributes are measured, not derived from maxattr (kernel-abi.md §7.6).
        Map<String, Object> policy = (Map<String, Object>) ((Map<String, Object>) found.get("netlink")).get("policy");
        assertEquals("CTRL_CMD_GETPOLICY", policy.get("source"), String.valueOf(policy.get("fallback_reason")));
        List<String> expected = RunningKernel.profile().netlink().requestPolicy().stream().map(UapiVdpaAttribute::name).toList();
        assertEquals(expected, ((Map<String, Object>) policy.get("request_attributes")).get("VDPA_CMD_DEV_NEW"));
        assertTrue(Files.size(out) > 0);
    }
}
