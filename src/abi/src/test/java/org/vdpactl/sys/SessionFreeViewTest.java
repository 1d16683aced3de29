package org.vdpactl.sys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

/**
 * The view the IOTLB hot path writes from: the same bytes as the arena's segment, in the global scope (which a
 * downcall does not acquire), and nothing but native memory.
 */
class SessionFreeViewTest {
    @Test
    void theViewIsTheSameMemoryInTheGlobalScope() {
        try (Arena shared = Arena.ofShared()) {
            MemorySegment owned = shared.allocate(72, 8);
            MemorySegment view = SessionFreeView.of(owned);
            assertEquals(owned.address(), view.address());
            assertEquals(72, view.byteSize());
            assertEquals(MemorySegment.NULL.scope(), view.scope(), "the global scope: nothing to acquire per downcall");
            view.set(ValueLayout.JAVA_LONG, 64, 0x1122334455667788L);
            assertEquals(0x1122334455667788L, owned.get(ValueLayout.JAVA_LONG, 64), "one memory, two names");
        }
    }

    @Test
    void heapMemoryIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> SessionFreeView.of(MemorySegment.ofArray(new long[9])));
    }
}
