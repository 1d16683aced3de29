package org.vdpactl.cli;

import java.nio.file.Path;
import java.util.List;
import org.vdpactl.fake.FakeKernel;
import org.vdpactl.testsupport.SeparateJvm;
import org.vdpactl.time.VirtualClock;

/**
 * A fake kernel state file in a test's folder and a second JVM that holds part of it (a node, as QEMU holds one on a
 * kernel; the state's lock, as another vdpactl would): the set-up of the tests of what vdpactl says next to such a
 * holder, kept once so that each states only what its holder holds.
 */
final class HeldFakeState implements AutoCloseable {
    private final Path state;
    private final Process holder;

    private HeldFakeState(Path state, Process holder) {
        this.state = state;
        this.holder = holder;
    }

    /**
     * Saves a fresh shared state as {@code dir}/fake-state.json, then starts {@code holderMain} with the state's path
     * before {@code args} (its output in {@code dir}/holder.out) and returns once that printed {@code ready}.
     */
    static HeldFakeState start(Path dir, Class<?> holderMain, String ready, String... args) throws Exception {
        Path state = dir.resolve("fake-state.json");
        try (FakeKernel k = FakeKernel.openShared(state, new VirtualClock(), List.of())) {
            k.saveState();
        }
        String[] full = new String[args.length + 1];
        full[0] = state.toString();
        System.arraycopy(args, 0, full, 1, args.length);
        return new HeldFakeState(state, SeparateJvm.startAndAwait(holderMain, dir, "holder", ready, full));
    }

    Path state() {
        return state;
    }

    Process holder() {
        return holder;
    }

    /** How vdpactl names the holder: its pid, its program and the user it runs as (getpwuid). */
    String holderName() {
        return "pid " + holder.pid() + " (java, user " + System.getProperty("user.name") + ")";
    }

    /** {@code args} after {@code --backend fake --fake-state STATE}. */
    String[] onFake(String... args) {
        return CliRun.onFakeArgs(state, args);
    }

    /** Ends the holder (what it held is released by its exit) and waits for it. */
    @Override
    public void close() throws InterruptedException {
        holder.destroyForcibly();
        holder.waitFor();
    }
}
