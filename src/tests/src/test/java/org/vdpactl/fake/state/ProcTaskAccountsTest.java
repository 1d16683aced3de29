package org.vdpactl.fake.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A lock holder's activity as read from per-thread /proc accounts (a /proc tree written here, as Linux words it). */
class ProcTaskAccountsTest {
    @TempDir
    Path proc;

    private void task(long pid, long tid, String schedstat, String state) throws IOException {
        Path t = Files.createDirectories(proc.resolve(pid + "/task/" + tid));
        if (schedstat != null) {
            Files.writeString(t.resolve("schedstat"), schedstat + "\n");
        }
        // a command may hold spaces and parentheses: the state is the field after the last ')'
        Files.writeString(t.resolve("stat"), tid + " (ja va) (x)) " + state + " 1 " + pid + " 0 0 -1 4194560 0\n");
    }

    @Test
    void runAndRunQueueTimeAddUpPerThreadAndStateDIsIo() throws IOException {
        task(4242, 4242, "1000 250 7", "S");
        task(4242, 4243, "300 40 2", "D");
        HolderActivity a = new ProcTaskAccounts(proc).of(4242);
        assertEquals(Map.of(4242L, 1250L, 4243L, 340L), a.busyNanosByThread());
        assertTrue(a.inIoWait());
    }

    @Test
    void runnableOrSleepingThreadsAreNotIo() throws IOException {
        task(77, 77, "5 5 1", "R");
        task(77, 78, "5 5 1", "S");
        assertFalse(new ProcTaskAccounts(proc).of(77).inIoWait());
    }

    @Test
    void noSuchProcessIsUnknown() {
        assertFalse(new ProcTaskAccounts(proc).of(Integer.MAX_VALUE).known());
        assertFalse(new ProcTaskAccounts(proc).of(0).known());
    }

    @Test
    void aThreadThatEndedTakesItsTimeAlongAndANewOneCountsWhole() {
        HolderActivity before = new HolderActivity(Map.of(1L, 500L, 2L, 900L), false);
        HolderActivity after = new HolderActivity(Map.of(1L, 600L, 3L, 50L), false);
        assertEquals(150, after.busySince(before), "thread 1 ran 100 more, thread 3 is new (50), thread 2 ended");
    }
}
