package org.vdpactl.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;

/** Runs vdpactl in-process and captures what it printed (its JSON checked against the shipped schemas). */
public record CliRun(int exitCode, String out, String err) {

    /** Runs vdpactl; every JSON document it printed is checked against its shipped schema ({@link CliJsonValidation}). */
    public static CliRun of(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
        return checked(args, code, out.toString(), err.toString());
    }

    /** What a run of {@code args} printed, once its JSON documents passed their schemas. */
    static CliRun checked(String[] args, int code, String out, String err) {
        CliJsonValidation.check(args, out);
        return new CliRun(code, out, err);
    }

    /** Runs vdpactl on the fake backend with the given state file. */
    public static CliRun onFake(Path state, String... args) {
        return of(onFakeArgs(state, args));
    }

    /** {@code args} after {@code --backend fake --fake-state STATE}: a command line on the fake with that state file. */
    static String[] onFakeArgs(Path state, String... args) {
        String[] full = new String[args.length + 4];
        full[0] = "--backend";
        full[1] = "fake";
        full[2] = "--fake-state";
        full[3] = state.toString();
        System.arraycopy(args, 0, full, 4, args.length);
        return full;
    }

    /** {@link #onFake} on the fake's virtual clock (no modelled latency is waited for). */
    public static CliRun onVirtualFake(Path state, String... args) {
        String[] full = new String[args.length + 2];
        full[0] = "--fake-clock";
        full[1] = "virtual";
        System.arraycopy(args, 0, full, 2, args.length);
        return onFake(state, full);
    }

    /** True when stderr holds no Java stack trace. */
    public boolean noStackTrace() {
        return !err.contains("\tat ") && !err.contains("Exception in thread") && !out.contains("\tat ");
    }

    /** The error lines vdpactl printed (its own, prefixed "vdpactl: "). */
    public long errorLines() {
        return err.lines().filter(l -> l.startsWith("vdpactl: ")).count();
    }
}
