package org.vdpactl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.vdpactl.testsupport.SeparateJvm;

/**
 * SIGINT and SIGTERM during {@code rehearse}, sent by the OS to a real vdpactl process: the
 * rehearsal stops at the next safe point, prints one JSON document with what was measured and
 * every device's state, one line on stderr, and exits INTERRUPTED (130).
 */
class RehearseSignalTest {
    /** The debug line the rehearsal logs once every device is up: from then on a signal stops it gracefully. */
    static final String SET_UP_DONE = "SIGINT or SIGTERM now stops the rehearsal at the next safe point";

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"TERM", "INT"})
    void aSignalStopsAtTheNextSafePointWithEveryDeviceReported(String signal) throws Exception {
        Interrupted r = interruptedRehearsal(dir, signal);
        assertEquals(ExitCode.INTERRUPTED.code(), r.exit(), r.err());
        JsonNode doc = new ObjectMapper().readTree(r.out()); // exactly one document: trailing content would throw
        assertEquals("interrupted", doc.get("outcome").asText(), r.out());
        assertEquals(4, doc.get("devices").size(), r.out());
        for (JsonNode d : doc.get("devices")) {
            assertEquals("RUNNING", d.get("state").asText(), d.toString());
        }
        assertTrue(r.err().lines().anyMatch(l -> l.startsWith("vdpactl: interrupted by SIG" + signal + ": stopped at a safe point after ")),
                r.err());
        assertTrue(!r.err().contains("\tat ") && !r.err().contains("Exception"), r.err());
    }

    /** What an interrupted rehearsal process printed and its exit code. */
    record Interrupted(int exit, String out, String err) {
    }

    /**
     * Starts a rehearsal that cannot end by itself within the test (100000 windows, each SUSPEND held
     * 200 ms on the real clock), waits until it logs that every device is up, sends the signal with
     * kill(1) and waits for the process to end.
     */
    static Interrupted interruptedRehearsal(Path dir, String signal) throws Exception {
        Path faults = Files.writeString(dir.resolve("slow.json"),
                "[{\"call\":\"VHOST_VDPA_SUSPEND\",\"occurrence\":\"every\",\"delayMs\":200}]");
        Path out = dir.resolve("out.json");
        Path err = dir.resolve("err.txt");
        // the set-up line is a debug line: the level comes from the environment, as an operator would set it
        Process p = SeparateJvm.start(Main.class, Map.of("JAVA_TOOL_OPTIONS", "-Dvdpactl.log.level=debug"),
                out, err, "--backend", "fake", "--fake-state", dir.resolve("state.json").toString(),
                "--fake-faults", faults.toString(), "--json", "rehearse", "--iterations", "100000");
        return signalAfterSetUp(p, out, err, signal);
    }

    /** Waits until the rehearsal of {@code p} logs that every device is up, sends it the signal and waits for its end. */
    private static Interrupted signalAfterSetUp(Process p, Path out, Path err, String signal) throws Exception {
        try {
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
            while (!Files.readString(err).contains(SET_UP_DONE)) {
                assertTrue(p.isAlive(), "the rehearsal ended before its set-up was done: " + Files.readString(err));
                assertTrue(System.nanoTime() < deadline, "no set-up line within 3 minutes: " + Files.readString(err));
                Thread.sleep(50);
            }
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(p.pid())).inheritIO().start();
            assertEquals(0, kill.waitFor(), "kill -" + signal);
            assertTrue(p.waitFor(5, TimeUnit.MINUTES), "the rehearsal did not stop after SIG" + signal);
            return new Interrupted(p.exitValue(), Files.readString(out), Files.readString(err));
        } finally {
            p.destroyForcibly();
        }
    }

    /**
     * A --force batch goes on after a failed line, not after a signal: SIGTERM during its rehearsal line stopped the
     * rehearsal (exit 130) but the batch ran the next line, a dev add, and would have run any number more.
     */
    @ParameterizedTest
    @ValueSource(strings = {"TERM", "INT"})
    void aSignalEndsAForceBatchAtTheLineItStopped(String signal) throws Exception {
        Path faults = Files.writeString(dir.resolve("slow.json"),
                "[{\"call\":\"VHOST_VDPA_SUSPEND\",\"occurrence\":\"every\",\"delayMs\":200}]");
        Path batch = Files.writeString(dir.resolve("batch.txt"), "rehearse --iterations 100000\ndev add x9 --mgmtdev vdpasim_net\n");
        Path state = dir.resolve("state.json");
        Path out = dir.resolve("batch.out");
        Path err = dir.resolve("batch.err");
        Process p = SeparateJvm.start(Main.class, Map.of("JAVA_TOOL_OPTIONS", "-Dvdpactl.log.level=debug"),
                out, err, "--backend", "fake", "--fake-state", state.toString(), "--fake-faults", faults.toString(),
                "--force", "--batch", batch.toString());
        Interrupted r = signalAfterSetUp(p, out, err, signal);
        assertEquals(ExitCode.INTERRUPTED.code(), r.exit(), r.err());
        assertTrue(r.err().contains("vdpactl: --batch " + batch + ":1: interrupted by SIG" + signal
                + " during this line: the batch stops here (--force goes on after failures, not signals); no later line was run"),
                r.err());
        assertTrue(!Files.readString(state).contains("x9"), "the line after the signal did not run: " + Files.readString(state));
    }
}
