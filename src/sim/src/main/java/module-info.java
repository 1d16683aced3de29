/**
 * Simulation: simulated hosts on the fake kernel, the mlx5 preset comparison against the published
 * figures, the orchestration benchmark ({@code org.vdpactl.sim}) and the benchmark records. report
 * ({@code org.vdpactl.bench.report}). The rehearsal's reports are module {@code org.vdpactl.report}.
 */
module org.vdpactl.sim {
    requires transitive org.vdpactl.orchestra;
    requires transitive org.vdpactl.fake;
    requires java.management;
    requires jdk.management;
    requires com.fasterxml.jackson.databind;

    exports org.vdpactl.sim;

    opens org.vdpactl.sim to com.fasterxml.jackson.databind;
}
