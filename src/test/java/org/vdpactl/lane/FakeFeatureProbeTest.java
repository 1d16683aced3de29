package org.vdpactl.lane;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.vdpactl.fake.FakeKernel;
import org.vdpactl.fake.FakeProcess;
import org.vdpactl.fake.netlink.FakeNetlink;

/**
 * The lane's feature probe against the fake kernel, so docs/kernel-matrix.md can say per item
 * whether the fake agrees with the real kernel it imitates. Writes target/lane/fake-PROFILE-features.json;
 * scripts/lane-report compares it with docs/lane-records/PROFILE-features.json from the VM lane.
 *
 * <p>Hook for per-kernel fake profiles: {@link #profiles()} lists the profiles to probe; today the
 * fake has one (6.12). When FakeKernel.Builder learns a profile, add it there and build the kernel
 * with it in {@link #kernelFor(String)}.
 */
class FakeFeatureProbeTest {

    static String[] profiles() {
        return new String[] {"6.12"};
    }

    static FakeKernel kernelFor(String profile) {
        FakeKernel kernel = FakeKernel.builder().build();
        FakeNetlink.install(kernel);
        return kernel;
    }

    @Test
    @SuppressWarnings("unchecked")
    void probeEveryFakeProfileAndWriteItsFeatureFile() throws Exception {
        for (String profile : profiles()) {
            Map<String, Object> found;
            try (FakeKernel kernel = kernelFor(profile); FakeProcess process = kernel.newProcess()) {
                found = new FeatureProbe(process).probe("/dev/vhost-vdpa-0", "/dev/vhost-vdpa-1");
            }
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("backend", "fake");
            doc.put("profile", profile);
            doc.putAll(found);
            Path out = Path.of("target/lane/fake-" + profile + "-features.json");
            Files.createDirectories(out.getParent());
            new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(out.toFile(), doc);

            Map<String, Object> unknown = (Map<String, Object>) found.get("unknown_ioctl");
            assertEquals("ENOTTY", unknown.get("owner_vring_0"), profile + ": an ioctl no kernel defines, after SET_OWNER");
            assertEquals("EPERM", unknown.get("not_owner"), profile + ": an unknown ioctl before SET_OWNER");
            Map<String, Object> ioctls = (Map<String, Object>) found.get("ioctls");
            assertEquals(Boolean.TRUE, ((Map<String, Object>) ioctls.get("VHOST_VDPA_SUSPEND")).get("present"), profile);
        }
    }
}
