package org.vdpactl.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CleanupTest {
    private final List<String> closed = new ArrayList<>();
    private final Cleanup cleanup = new Cleanup();

    private AutoCloseable resource(String name, Exception failure) {
        return () -> {
            closed.add(name);
            if (failure != null) {
                throw failure;
            }
        };
    }

    @Test
    void closesLastFirstAndForgetsWhatItClosed() throws Exception {
        AutoCloseable a = resource("a", null);
        assertSame(a, cleanup.track(a));
        cleanup.track(resource("b", null));
        cleanup.closeAll();
        cleanup.closeAll();
        assertEquals(List.of("b", "a"), closed);
    }

    @Test
    void aFailingCloseDoesNotLeakTheRestAndTheFirstFailureIsThrownWithTheOthersAttached() {
        IOException first = new IOException("c");
        IllegalStateException second = new IllegalStateException("a");
        cleanup.track(resource("a", second));
        cleanup.track(resource("b", null));
        cleanup.track(resource("c", first));
        Exception e = assertThrows(Exception.class, cleanup::closeAll);
        assertSame(first, e);
        assertEquals(List.of(second), List.of(e.getSuppressed()));
        assertEquals(List.of("c", "b", "a"), closed);
    }
}
