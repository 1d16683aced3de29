package org.vdpactl.sys;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link InputFile}'s two ways (the JDK's for a regular file, the native O_NONBLOCK one for everything else) read and
 * fail alike: what a caller gets for a path does not depend on which way answered it.
 */
class InputFileWaysTest {
    private static final long BOUND = 1024;

    @TempDir
    Path dir;

    /** What a read of {@code path} gave: the bytes, or the exception's type, message and errno. */
    private record Outcome(String bytes, String exception, String message, int errno) {
    }

    private interface Read {
        byte[] apply(Path path) throws IOException;
    }

    private static Outcome outcome(Read read, Path path) {
        try {
            return new Outcome(new String(read.apply(path), StandardCharsets.UTF_8), null, null, 0);
        } catch (IOException e) {
            int errno = e instanceof InputFile.ErrnoFileSystemException f ? f.errno() : 0;
            return new Outcome(null, e.getClass().getName(), e.getMessage(), errno);
        }
    }

    @Test
    void everyKindOfPathGetsFromBothWaysWhatTheNativeWayGives() throws Exception {
        Path regular = Files.writeString(dir.resolve("state.json"), "{\"version\" : 1}\n");
        Path empty = Files.createFile(dir.resolve("empty"));
        Path large = Files.write(dir.resolve("large"), new byte[(int) BOUND + 1]);
        Path atBound = Files.write(dir.resolve("at-bound"), new byte[(int) BOUND]);
        Path fifo = dir.resolve("fifo");
        assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor());
        Path link = Files.createSymbolicLink(dir.resolve("link"), regular);
        Path dangling = Files.createSymbolicLink(dir.resolve("dangling"), dir.resolve("nowhere"));
        Path loop = Files.createSymbolicLink(dir.resolve("loop"), dir.resolve("loop"));
        List<Path> paths = List.of(regular, empty, large, atBound, fifo, link, dangling, loop, dir, dir.resolve("missing"),
                regular.resolve("under-a-file"), Path.of("/dev/zero"), Path.of("/dev/null"), Path.of("/proc/self/status"));
        for (Path p : paths) {
            Outcome expected = outcome(f -> InputFile.readNative(f, BOUND), p);
            Outcome got = outcome(f -> InputFile.read(f, BOUND), p);
            if (p.toString().equals("/proc/self/status")) {
                // its text changes between two reads (the process's own counters): the way it ends must not
                assertEquals(expected.exception(), got.exception(), p.toString());
            } else {
                assertEquals(expected, got, p.toString());
            }
        }
    }

    @Test
    void theJdkWayAnswersOnlyARegularFileAndLeavesTheRestToTheNativeWay() throws Exception {
        Path regular = Files.writeString(dir.resolve("f"), "text");
        assertArrayEquals("text".getBytes(StandardCharsets.UTF_8), InputFile.readRegular(regular, BOUND));
        Path fifo = dir.resolve("fifo");
        assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor());
        // a FIFO is never opened by the JDK (its open would wait for a writer), nor a device or a directory
        assertNull(InputFile.readRegular(fifo, BOUND));
        assertNull(InputFile.readRegular(Path.of("/dev/zero"), BOUND));
        assertNull(InputFile.readRegular(dir, BOUND));
        // a path through a regular file (ENOTDIR) keeps its errno: the native way tells it from a missing file
        assertNull(InputFile.readRegular(regular.resolve("x"), BOUND));
    }
}
