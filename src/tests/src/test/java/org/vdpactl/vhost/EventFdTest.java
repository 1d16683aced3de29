package org.vdpactl.vhost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

/** What {@link EventFd} does once closed: its number may already name another file, so nothing reaches the seam. */
class EventFdTest {
    private final StubSyscalls sys = new StubSyscalls();

    @Test
    void signalWritesTheValueAsEightBytes() {
        try (EventFd e = EventFd.create(sys)) {
            e.signal(5);
            assertEquals(1, sys.calls("write").size());
            assertEquals(8, sys.calls("write").get(0).arg().length);
            assertEquals(5, sys.calls("write").get(0).arg()[0]);
        }
    }

    @Test
    void aClosedEventFdIsClosedOnceAndRefusesEveryCallBeforeTheSeam() {
        EventFd e = EventFd.create(sys);
        e.close();
        e.close();
        assertEquals(List.of(e.fd()), sys.closed);
        IllegalStateException signal = assertThrows(IllegalStateException.class, e::signal);
        assertTrue(signal.getMessage().contains("eventfd " + e.fd()), signal.getMessage());
        assertThrows(IllegalStateException.class, e::drain);
        assertThrows(IllegalStateException.class, () -> e.awaitSignal(0));
        assertTrue(sys.calls("write").isEmpty(), "no write after close");
    }
}
