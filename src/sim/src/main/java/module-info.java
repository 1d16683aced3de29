/**
 * Simulation and reports: simulated hosts on the fake kernel, the mlx5 preset comparison against the
 * published figures, the orchestration benchmark ({@code org.vdpactl.sim}), and the rehearsal's text,
 * JSON and HTML reports with the merged fleet report ({@code org.vdpactl.report}).
 */
module org.vdpactl.sim {
    requires transitive org.vdpactl.client;
    requires transitive org.vdpactl.fake;
    requires HdrHistogram;
    requires java.management;
    requires jdk.management;
    requires com.fasterxml.jackson.databind;

    exports org.vdpactl.sim;
    exports org.vdpactl.report;
    exports org.vdpactl.report.fleet;

    opens org.vdpactl.report.fleet to com.fasterxml.jackson.databind;
    opens org.vdpactl.sim to com.fasterxml.jackson.databind;
}
