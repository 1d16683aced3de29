package org.vdpactl.fake.state;

import java.nio.file.Path;

/**
 * A separate process holding the state lock for FakeStateStoreTest: prints "locked", then for the
 * given milliseconds either works (uses CPU, as a slow critical section on a loaded machine does)
 * or sleeps (as a stopped or hung holder does), then releases the lock.
 */
public final class LockHolderMain {
    private LockHolderMain() {
    }

    public static void main(String[] args) throws Exception {
        long millis = Long.parseLong(args[1]);
        boolean work = args[2].equals("work");
        try (FakeStateStore.Session s = new FakeStateStore(Path.of(args[0])).open()) {
            System.out.println("locked");
            System.out.flush();
            long end = System.nanoTime() + millis * 1_000_000L;
            long spin = 0;
            while (System.nanoTime() < end) {
                if (work) {
                    spin += Long.numberOfTrailingZeros(System.nanoTime());
                } else {
                    Thread.sleep(50);
                }
            }
            System.out.println(spin >= 0 ? "released" : "");
        }
    }
}
