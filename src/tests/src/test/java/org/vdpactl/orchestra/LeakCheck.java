package org.vdpactl.orchestra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.vdpactl.fake.inside.FakeInside;
import org.vdpactl.fake.FakeProcess;
import org.vdpactl.fake.errno.KernelError;

/** Open fds and mappings of a fake process and of this JVM, before and after a rehearsal. */
final class LeakCheck {
    private static final int FD_LIMIT = 1024;
    private final FakeProcess process;
    private final int fakeFds;
    private final int fakeVmas;
    private final long jvmFds;

    LeakCheck(FakeProcess process) {
        this.process = process;
        this.fakeFds = openFds(process);
        this.fakeVmas = FakeInside.addressSpace(process).vmas().size();
        this.jvmFds = jvmFds();
    }

    /** Asserts that the fake process and the JVM have exactly the fds and mappings they had before. */
    void assertNothingLeaked(String context) {
        assertEquals(fakeFds, openFds(process), context + ": fake process fds leaked");
        assertEquals(fakeVmas, FakeInside.addressSpace(process).vmas().size(), context + ": fake process mappings leaked");
        long now = jvmFds();
        assertTrue(now <= jvmFds, context + ": JVM fds grew from " + jvmFds + " to " + now);
    }

    static int openFds(FakeProcess p) {
        int n = 0;
        for (int fd = 0; fd < FD_LIMIT; fd++) {
            try {
                FakeInside.fileOf(p, fd);
                n++;
            } catch (KernelError notOpen) {
                // EBADF: not open
            }
        }
        return n;
    }

    static long jvmFds() {
        try (Stream<Path> s = Files.list(Path.of("/proc/self/fd"))) {
            return s.count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
