package org.vdpactl.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Part "classes": the per-phase counts and the run-time breakdown by kind that scripts/lib/bench-classes.sh writes. */
class StartupClassesTest {
    private static final String RECORD = String.join("\n",
            "default kernel-dev-list 8 jdk.internal.foreign.abi 30 20",
            "default kernel-dev-list 8 picocli 176 176",
            "build-archive kernel-dev-list 8 jdk.internal.foreign.abi 30 8",
            "build-archive kernel-dev-list 8 java.lang.invoke 300 90",
            "generated build-archive kernel-dev-list downcall-stub 8",
            "generated build-archive kernel-dev-list lambda-form 88",
            "generated build-archive kernel-dev-list proxy 2",
            "generated default kernel-dev-list jar 190",
            "generated default kernel-dev-list downcall-stub 6");

    @Test
    void kindsAreCountedPerVariantAndCommand() {
        StartupClasses c = StartupClasses.parse(RECORD);
        assertEquals(8, c.generated("build-archive", "kernel-dev-list", "downcall-stub"));
        assertEquals(88, c.generated("build-archive", "kernel-dev-list", "lambda-form"));
        assertEquals(0, c.generated("build-archive", "kernel-dev-list", "jar"));
        assertEquals(6, c.generated("default", "kernel-dev-list", "downcall-stub"));
        // the kind lines are no phase lines: the phase totals stay the package counts
        assertEquals(98, c.run("build-archive", "kernel-dev-list").fromJars());
        assertEquals(196, c.run("default", "kernel-dev-list").fromJars());
    }

    @Test
    void theKindsTableHasARowPerKindAndAColumnPerVariant() {
        Markdown md = new Markdown();
        assertTrue(StartupClasses.parse(RECORD).kindsTable(md, Map.of("kernel-dev-list", "kernel")));
        String text = md.toString();
        assertTrue(text.contains("| kernel, no archive | with the archive |"), text);
        assertTrue(text.contains("| " + StartupClasses.KINDS.get("downcall-stub") + " | 6 | 8 |"), text);
        assertTrue(text.contains("| " + StartupClasses.KINDS.get("jar") + " | 190 | 0 |"), text);
    }

    @Test
    void aRecordWithoutKindsShowsNoKindsTable() {
        StartupClasses c = StartupClasses.parse("default hello 0 java.lang 20 0");
        assertNull(c.generated("default", "hello", "jar"));
        Markdown md = new Markdown();
        assertFalse(c.kindsTable(md, Map.of()));
        assertEquals("", md.toString());
    }
}
