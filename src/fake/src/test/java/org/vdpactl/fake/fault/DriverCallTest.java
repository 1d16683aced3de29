package org.vdpactl.fake.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The driver calls a fault rule may name are the ones the device models charge: one typed list ({@link DriverCall}),
 * which the models use and the injector's check reads, instead of names typed twice.
 */
class DriverCallTest {
    @Test
    void aRuleMayNameEveryDriverCallByItsKernelNameAndNothingMisspelt() {
        for (DriverCall c : DriverCall.values()) {
            assertTrue(FaultCalls.matchesSome(c.kernelName()), c.kernelName());
        }
        assertEquals("set_vq_ready", DriverCall.SET_VQ_READY.kernelName());
        assertFalse(FaultCalls.matchesSome("set_mapp"));
        assertFalse(FaultCalls.matchesSome("SET_MAP"), "ops go by the kernel's (lower-case) names, ioctls by the uapi's");
        assertTrue(FaultCalls.matchesSome("VHOST_VDPA_SUSPEND"));
    }

    /** Every call a model charges or a node's file operation reports is on the list, and nothing else is. */
    @Test
    void theListIsWhatTheModelsCharge() throws IOException {
        Path sources = Path.of("src", "main", "java", "org", "vdpactl", "fake");
        if (!Files.isDirectory(sources)) {
            sources = Path.of("src", "fake", "src", "main", "java", "org", "vdpactl", "fake");
        }
        Pattern use = Pattern.compile("\\b(?:charge|faultHit)\\(DriverCall\\.([A-Z_]+)");
        Set<String> used = new TreeSet<>();
        try (Stream<Path> files = Files.walk(sources)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                Matcher m = use.matcher(Files.readString(f));
                while (m.find()) {
                    used.add(m.group(1));
                }
            }
        }
        Set<String> listed = new TreeSet<>(Arrays.stream(DriverCall.values()).map(Enum::name).toList());
        assertEquals(listed, used, "a call on the list that no model makes would let a rule that can never fire pass");
    }
}
