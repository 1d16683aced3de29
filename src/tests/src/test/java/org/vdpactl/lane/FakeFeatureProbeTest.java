package org.vdpactl.lane;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.vdpactl.fake.FakeKernel;
import org.vdpactl.fake.FakeProcess;
import org.vdpactl.abi.KernelProfiles;
import org.vdpactl.fake.netlink.FakeNetlink;

/**
 * The lane's feature probe against each fake kernel profile, compared with the real kernel of that
 * version where the VM lane recorded one (docs/lane-records/KERNEL-features.json, matched by the
 * record's kernel_release: "7.2.13-vdpactl" is the 7.2 profile whatever the lane calls the kernel).
 *
 * <p>Writes target/lane/fake-PROFILE-features.json, and the same document as
 * fake-KERNEL-features.json under each lane kernel id that maps to the profile (the "sid" lane
 * kernel is the 7.2 profile), which is what scripts/lane-report reads for the "fake agrees" column.
 * target/lane/fake-agreement.json says per profile "agrees", "differs" or "not measured" (no
 * record of that version yet); a profile without a record is never counted as agreeing.
 */
class FakeFeatureProbeTest {
    private static final Path RECORDS = Path.of("docs/lane-records");
    private static final Path OUT = Path.of("target/lane");
    private final ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /** The fake profiles probed: every profile the fake speaks. */
    static List<String> profiles() {
        return KernelProfiles.VERSIONS;
    }

    static FakeKernel kernelFor(String profile) {
        FakeKernel kernel = FakeKernel.builder().kernel(profile).build();
        FakeNetlink.install(kernel);
        return kernel;
    }

    @Test
    void probeEveryFakeProfileAndWriteItsFeatureFile() throws Exception {
        List<String> differing = new ArrayList<>();
        Map<String, Object> report = probeAndCompare(RECORDS, OUT, differing);
        assertEquals(profiles(), List.copyOf(report.keySet()));
        assertTrue(differing.isEmpty(), "the fake differs from the real kernel it imitates:\n" + String.join("\n", differing));
    }

    /**
     * docs/kernel-matrix.md's "fake agrees" column is generated from the fake's feature files kept
     * beside the lane records (docs/lane-records/fake-KERNEL-features.json), so that the document
     * can be checked against committed files: they must be what the fake answers now.
     * {@code -Dvdpactl.docs.write=true} rewrites them.
     */
    @Test
    void theCommittedFakeFeatureFilesAreWhatTheFakeAnswers(@TempDir Path tmp) throws Exception {
        probeAndCompare(RECORDS, tmp, new ArrayList<>());
        boolean write = Boolean.getBoolean("vdpactl.docs.write");
        List<String> stale = new ArrayList<>();
        try (var files = Files.list(tmp)) {
            for (Path fresh : files.filter(p -> p.getFileName().toString().matches("fake-.*-features\\.json")).sorted().toList()) {
                Path committed = RECORDS.resolve(fresh.getFileName());
                if (write) {
                    Files.copy(fresh, committed, StandardCopyOption.REPLACE_EXISTING);
                } else if (!Files.exists(committed) || !Files.readString(committed).equals(Files.readString(fresh))) {
                    stale.add(committed.toString());
                }
            }
        }
        assertEquals(List.of(), stale, "fake feature files that differ from the fake's answers (rewrite them: "
                + "mvn test -Dtest=FakeFeatureProbeTest -Dvdpactl.docs.write=true, then scripts/lane-report docs)");
    }

    /**
     * The lane commits what the probe wrote, so one kernel must give the same bytes on every run:
     * Map.of and Set.of iterate in an order salted per JVM, and a record written from one of them
     * changed its key order from one lane run to the next.
     */
    @Test
    void theProbeWritesEveryObjectInOneKeyOrder() throws Exception {
        List<String> salted = new ArrayList<>();
        try (FakeKernel kernel = kernelFor("7.2"); FakeProcess process = kernel.newProcess()) {
            findSaltedOrder("", new FeatureProbe(process).probe("/dev/vhost-vdpa-0", "/dev/vhost-vdpa-1"), salted);
        }
        assertEquals(List.of(), salted);
    }

    private static void findSaltedOrder(String path, Object value, List<String> out) {
        boolean salted = value != null && value.getClass().getName().startsWith("java.util.ImmutableCollections$");
        if (value instanceof Map<?, ?> m) {
            if (salted && m.size() > 1) {
                out.add(path);
            }
            m.forEach((k, v) -> findSaltedOrder(path + "/" + k, v, out));
        } else if (value instanceof Set<?> set && salted && set.size() > 1) {
            out.add(path);
        } else if (value instanceof List<?> list) {
            for (int i = 0; i < list.size(); i++) {
                findSaltedOrder(path + "[" + i + "]", list.get(i), out);
            }
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void aLaneRecordIsMatchedByReleaseAndADifferenceIsReported(@TempDir Path tmp) throws Exception {
        Path records = Files.createDirectories(tmp.resolve("records"));
        Path out = tmp.resolve("out");
        Map<String, Object> sid;
        try (FakeKernel kernel = kernelFor("7.2"); FakeProcess process = kernel.newProcess()) {
            sid = new LinkedHashMap<>(new FeatureProbe(process).probe("/dev/vhost-vdpa-0", "/dev/vhost-vdpa-1"));
        }
        sid.put("kernel_release", "7.2.13-vdpactl");
        Map<String, Object> resume = (Map<String, Object>) ((Map<String, Object>) sid.get("ioctls")).get("VHOST_VDPA_RESUME");
        resume.put("present", false);
        json.writeValue(records.resolve("sid-features.json").toFile(), sid);

        List<String> differing = new ArrayList<>();
        Map<String, Object> report = probeAndCompare(records, out, differing);

        assertEquals(List.of("7.2 vs lane kernel sid: ioctl VHOST_VDPA_RESUME: kernel false, fake true"), differing);
        assertEquals("differs", ((Map<String, Object>) report.get("7.2")).get("verdict"));
        assertEquals("not measured", ((Map<String, Object>) report.get("6.1")).get("verdict"));
        assertEquals("not measured", ((Map<String, Object>) report.get("6.12")).get("verdict"));
        assertTrue(Files.exists(out.resolve("fake-sid-features.json")), "lane-report finds the fake under the lane's kernel id");
    }

    /** Probes every profile, writes the fake feature files and fake-agreement.json to {@code out}. */
    @SuppressWarnings("unchecked")
    Map<String, Object> probeAndCompare(Path recordsDir, Path out, List<String> differing) throws IOException {
        Map<String, Map<String, Object>> records = laneRecords(recordsDir);
        Map<String, Object> report = new LinkedHashMap<>();
        Files.createDirectories(out);
        for (String profile : profiles()) {
            Map<String, Object> found;
            try (FakeKernel kernel = kernelFor(profile); FakeProcess process = kernel.newProcess()) {
                found = new FeatureProbe(process).probe("/dev/vhost-vdpa-0", "/dev/vhost-vdpa-1");
            }
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("backend", "fake");
            doc.put("profile", profile);
            doc.putAll(found);
            json.writeValue(out.resolve("fake-" + profile + "-features.json").toFile(), doc);

            Map<String, Object> unknown = (Map<String, Object>) found.get("unknown_ioctl");
            assertEquals("ENOTTY", unknown.get("owner_vring_0"), profile + ": an ioctl no kernel defines, after SET_OWNER");
            assertEquals("EPERM", unknown.get("not_owner"), profile + ": an unknown ioctl before SET_OWNER");
            Map<String, Object> policy = (Map<String, Object>) ((Map<String, Object>) found.get("netlink")).get("policy");
            assertEquals("CTRL_CMD_GETPOLICY", policy.get("source"), profile + ": the fake answers the policy dump");

            report.put(profile, compare(profile, doc, records, out, differing));
        }
        json.writeValue(out.resolve("fake-agreement.json").toFile(), report);
        return report;
    }

    /** One profile's column: compared with every lane record of its version, or "not measured". */
    private Map<String, Object> compare(String profile, Map<String, Object> fakeDoc, Map<String, Map<String, Object>> records,
                                        Path out, List<String> differing) throws IOException {
        Map<String, Object> column = new LinkedHashMap<>();
        List<String> kernels = new ArrayList<>();
        boolean differs = false;
        for (Map.Entry<String, Map<String, Object>> r : records.entrySet()) {
            if (!profile.equals(versionOf((String) r.getValue().get("kernel_release")))) {
                continue;
            }
            kernels.add(r.getKey());
            json.writeValue(out.resolve("fake-" + r.getKey() + "-features.json").toFile(), fakeDoc);
            FeatureAgreement a = FeatureAgreement.of(fakeDoc, r.getValue());
            a.differences().forEach(d -> differing.add(profile + " vs lane kernel " + r.getKey() + ": " + d));
            differs |= !a.differences().isEmpty();
            Map<String, Object> k = new LinkedHashMap<>();
            k.put("kernel_release", r.getValue().get("kernel_release"));
            k.put("agreed_items", a.agreed());
            k.put("differences", a.differences());
            k.put("unmeasured_items", a.unmeasured());
            column.put(r.getKey(), k);
        }
        String verdict = kernels.isEmpty() ? "not measured" : differs ? "differs" : "agrees";
        column.put("verdict", verdict);
        if (kernels.isEmpty()) {
            column.put("why", "no lane record (docs/lane-records/*-features.json) with a " + profile
                    + ".x kernel_release; the VM lane writes it");
        }
        System.out.println("fake " + profile + ": " + verdict + (kernels.isEmpty() ? "" : " (lane kernels " + kernels + ")"));
        return column;
    }

    /** "7.2.13-vdpactl" → "7.2"; null when unparseable. */
    static String versionOf(String release) {
        if (release == null) {
            return null;
        }
        String[] p = release.split("[.-]");
        return p.length >= 2 ? p[0] + "." + p[1] : null;
    }

    /** Lane kernel id (file name prefix) → its features document. */
    static Map<String, Map<String, Object>> laneRecords(Path dir) throws IOException {
        Map<String, Map<String, Object>> out = new LinkedHashMap<>();
        if (!Files.isDirectory(dir)) {
            return out;
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*-features.json")) {
            for (Path f : files) {
                String id = f.getFileName().toString().replaceFirst("-features\\.json$", "");
                out.put(id, new ObjectMapper().readValue(f.toFile(), new TypeReference<Map<String, Object>>() { }));
            }
        }
        return out;
    }
}
