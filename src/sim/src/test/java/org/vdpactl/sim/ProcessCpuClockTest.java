package org.vdpactl.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bench's process CPU clock: every thread's run time from its schedstat, to the nanosecond, not the JVM's
 * figure in 10 ms clock ticks.
 */
class ProcessCpuClockTest {
    @TempDir
    Path tmp;

    @Test
    void sumsEveryThreadsRunTimeToTheNanosecond() throws IOException {
        task("101", "1234567 890 12\n");
        task("102", "5 0 1\n");
        assertEquals(1234572, new ProcessCpuClock(tmp).nanos(), "run-ns of both threads; run-queue time is not CPU");
    }

    @Test
    void aThreadThatEndedBetweenListingAndReadingIsSkipped() throws IOException {
        task("101", "700 1 1\n");
        Files.createDirectories(tmp.resolve("102")); // listed, its schedstat already gone
        assertEquals(700, new ProcessCpuClock(tmp).nanos());
    }

    private void task(String tid, String schedstat) throws IOException {
        Files.writeString(Files.createDirectories(tmp.resolve(tid)).resolve("schedstat"), schedstat);
    }
}
