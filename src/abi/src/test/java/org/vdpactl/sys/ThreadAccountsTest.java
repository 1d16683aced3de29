package org.vdpactl.sys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A process's threads as Linux accounts them (a task directory written here as Linux words it, and this JVM's own). */
class ThreadAccountsTest {
    @TempDir
    Path tasks;

    @Test
    void eachThreadHasItsRunAndRunQueueTimeAndItsStateWhenAsked() throws IOException {
        task(4242, "1000 250 7\n", "S");
        task(4243, "300 40 2\n", "D");
        assertEquals(List.of(new ThreadAccounts.Account(4242, 1000, 250, 'S'), new ThreadAccounts.Account(4243, 300, 40, 'D')),
                sorted(ThreadAccounts.of(tasks, true)));
        assertEquals(List.of(new ThreadAccounts.Account(4242, 1000, 250, ThreadAccounts.STATE_NOT_READ),
                        new ThreadAccounts.Account(4243, 300, 40, ThreadAccounts.STATE_NOT_READ)),
                sorted(ThreadAccounts.of(tasks, false)));
    }

    @Test
    void aThreadThatEndedBetweenListingAndReadingIsLeftOut() throws IOException {
        task(101, "700 1 1\n", "R");
        Files.createDirectories(tasks.resolve("102")); // listed, its files already gone
        assertEquals(List.of(new ThreadAccounts.Account(101, 700, 1, 'R')), ThreadAccounts.of(tasks, true));
    }

    @Test
    void anUnreadableDirectoryOrALineInAnotherFormatIsNoLookAtAll() throws IOException {
        assertTrue(ThreadAccounts.of(tasks.resolve("no-such-process"), false).isEmpty());
        task(2, "five 5 1\n", "S");
        // a well-formed thread listed before the malformed one, so that the part read before it is there to be dropped
        long tid = 100;
        do {
            task(tid++, "5 5 1\n", "S");
        } while (firstListed().equals("2"));
        assertTrue(ThreadAccounts.of(tasks, false).isEmpty(), "half a process is not taken for all of it");
    }

    @Test
    void theStateLetterFollowsTheLastParenthesis() {
        assertEquals('D', ThreadAccounts.stateOf("12 (a) R) D 1 2"));
        assertEquals('T', ThreadAccounts.stateOf("12 (java) T 1 2"));
        assertThrows(IllegalArgumentException.class, () -> ThreadAccounts.stateOf("12 java"));
    }

    @Test
    void thisJvmHasThreadsThatRan() {
        List<ThreadAccounts.Account> mine = ThreadAccounts.of(Path.of("/proc/self/task"), true);
        assertFalse(mine.isEmpty(), "Linux with CONFIG_SCHED_INFO (Debian's kernels) accounts every thread");
        assertTrue(mine.stream().anyMatch(t -> t.runNanos() > 0 && t.state() == 'R'), "the reading thread runs");
    }

    private void task(long tid, String schedstat, String state) throws IOException {
        Path t = Files.createDirectories(tasks.resolve(Long.toString(tid)));
        Files.writeString(t.resolve("schedstat"), schedstat);
        // a command may hold spaces and parentheses: the state is the field after the last ')'
        Files.writeString(t.resolve("stat"), tid + " (ja va) (x)) " + state + " 1 1 0 0 -1 4194560 0\n");
    }

    private String firstListed() throws IOException {
        try (Stream<Path> listed = Files.list(tasks)) {
            return listed.findFirst().orElseThrow().getFileName().toString();
        }
    }

    private static List<ThreadAccounts.Account> sorted(List<ThreadAccounts.Account> accounts) {
        return accounts.stream().sorted(Comparator.comparingLong(ThreadAccounts.Account::tid)).toList();
    }
}
