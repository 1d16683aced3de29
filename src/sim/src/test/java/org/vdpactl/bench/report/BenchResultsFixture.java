package org.vdpactl.bench.report;

/** What the report tests' results directories share: scripts/bench's machine.properties of a quiet test machine. */
final class BenchResultsFixture {
    private BenchResultsFixture() {
    }

    /** machine.properties of a run begun at {@code date}, load 0.5 before and 0.7 after, paths under /x. */
    static String machineProperties(String date) {
        return """
                date=%s
                commit=abc1234
                nproc=2
                cpu=Test CPU
                kernel=Linux 6.12
                jdk=Test JDK 25
                gcc=gcc 12
                cflags=-O2
                jmh=1.37
                load.before=0.5
                load.after=0.7
                path.java_home=/x/jdk
                path.build=/x/repo/target/bench
                path.root=/x/repo
                """.formatted(date);
    }
}
