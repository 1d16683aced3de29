package org.vdpactl.vhost;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ConcurrentModificationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

import org.junit.jupiter.api.Test;

class OneThreadGuardTest {
    private final OneThreadGuard guard = new OneThreadGuard("/dev/vhost-vdpa-0");

    /** What another thread gets when it tries to enter now: null when it got in (and left). */
    private Throwable enterFromAnotherThread() throws InterruptedException, ExecutionException {
        return CompletableFuture.supplyAsync(() -> {
            try (var _ = guard.enter()) {
                return (Throwable) null;
            } catch (ConcurrentModificationException e) {
                return e;
            }
        }).get();
    }

    @Test
    void enterReturnsTheSameGuardSoGuardingAllocatesNothing() {
        try (var g = guard.enter()) {
            assertSame(guard, g);
        }
    }

    @Test
    void anotherThreadIsRefusedWhileOneIsInsideAndNamesTheHandle() throws Exception {
        try (var _ = guard.enter()) {
            Throwable refused = enterFromAnotherThread();
            assertTrue(refused instanceof ConcurrentModificationException, String.valueOf(refused));
            assertTrue(refused.getMessage().startsWith("/dev/vhost-vdpa-0: device handle used by "), refused.getMessage());
        }
        assertNull(enterFromAnotherThread());
    }

    @Test
    void theThreadInsideMayEnterAgainAndOnlyTheOutermostLeaveLetsOthersIn() throws Exception {
        try (var _ = guard.enter()) {
            try (var _ = guard.enter()) {
                assertTrue(enterFromAnotherThread() instanceof ConcurrentModificationException);
            }
            assertTrue(enterFromAnotherThread() instanceof ConcurrentModificationException,
                    "the inner leave must not release the handle");
        }
        assertNull(enterFromAnotherThread());
    }

    @Test
    void aRefusedThreadDoesNotReleaseTheHandleOfTheThreadInside() throws Exception {
        try (var _ = guard.enter()) {
            enterFromAnotherThread();
            assertTrue(enterFromAnotherThread() instanceof ConcurrentModificationException);
        }
    }
}
