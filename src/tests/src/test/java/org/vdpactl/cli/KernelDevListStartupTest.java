package org.vdpactl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.vdpactl.testsupport.LoadedClasses;

/**
 * What {@code vdpactl --backend kernel dev list} makes at start-up, seen in a vdpactl JVM of its own, against this
 * machine's kernel (0 with the vdpa module, 8 without: both ways hold the same). Each of these is made at run time at
 * every start, as the JDK 25 AOT cache does not keep it (docs/benchmarks.md, part 4, "Where the start-up goes"):
 * <ul>
 *   <li>one FFM downcall stub: the netlink exchange's calls and close share one handle on syscall(2);</li>
 *   <li>no reflective field accessor: picocli's fields are read and written by the generated *CommandFields classes;</li>
 *   <li>no errno text table: a failure's message is composed only when shown, and "no vdpa family" is shown
 *       in words of its own;</li>
 *   <li>no platform logging: the process ends by halting, as Runtime.exit would start it to log the exit.</li>
 * </ul>
 */
class KernelDevListStartupTest {
    @TempDir
    Path dir;

    @Test
    void devListLinksOneHandleReflectsOnNoFieldComposesNoUnshownMessageAndLogsNoExit() throws Exception {
        LoadedClasses list = LoadedClasses.of(dir, Main.class, "kernel-dev-list", "--backend", "kernel", "dev", "list");
        assertTrue(list.exitCode() == 0 || list.exitCode() == ExitCode.NOT_READY.code(), list.exitCode() + ": " + list.stderr());
        // the netlink exchange's handle: PanamaSyscalls alone loads with any backend (the host's questions)
        assertTrue(list.names().contains("org.vdpactl.sys.PanamaSyscalls$SyscallHandle"),
                "the kernel was not asked, so this test would show nothing: " + list.names().size() + " classes");
        assertEquals(1, list.names().stream().filter(n -> n.startsWith("jdk.internal.foreign.abi.DowncallStub")).count(),
                "downcall stubs: " + list.names().stream().filter(n -> n.startsWith("jdk.internal.foreign.abi.")).toList());
        assertEquals(List.of(), list.names().stream().filter(n -> n.startsWith("jdk.internal.reflect.") && n.contains("FieldAccessor")).toList(),
                "a field was read or written by reflection");
        assertEquals(List.of(), list.names().stream().filter(n -> n.startsWith("jnr.constants.platform.")).toList(),
                "an errno's text was looked up for a message nobody saw");
        assertEquals(List.of(), list.names().stream().filter(n -> n.startsWith("jdk.internal.logger.") || n.startsWith("java.util.logging.")).toList(),
                "the JDK's platform logging started");
    }
}
