package org.vdpactl.fake.mem;

import java.lang.foreign.Arena;


/**
 * {@link HostMemory} from Java arenas: portable, but the JVM zeroes the whole block up front, so it
 * only suits small mappings (unit tests on hosts without a usable mmap).
 */
public final class ArenaHostMemory implements HostMemory {
    @Override
    public HostReservation reserve(long bytes) {
        Arena arena = Arena.ofShared();
        try {
            return new HostReservation(arena.allocate(bytes, PAGE_SIZE), arena::close);
        } catch (RuntimeException | OutOfMemoryError e) {
            arena.close();
            throw e;
        }
    }
}
