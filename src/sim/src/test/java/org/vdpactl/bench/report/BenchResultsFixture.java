package org.vdpactl.bench.report;

/** The machine facts scripts/bench writes into a run's results (machine.properties), as the report tests need them. */
final class BenchResultsFixture {
    private BenchResultsFixture() {
    }

    /** A run's machine.properties on a made-up machine whose paths are under /x (which no record may keep). */
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
