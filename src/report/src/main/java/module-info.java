/**
 * The rehearsal's reports: text, JSON (with the JSON Schemas of every document vdpactl prints, under
 * {@code org/vdpactl/schemas}) and HTML ({@code org.vdpactl.report}), and the merged fleet report
 * ({@code org.vdpactl.report.fleet}). Rendering a report needs the rehearsal's result model only: not the
 * fake kernel nor the simulator.
 */
module org.vdpactl.report {
    requires transitive org.vdpactl.orchestra;
    requires HdrHistogram;
    requires com.fasterxml.jackson.databind;

    exports org.vdpactl.report;
    exports org.vdpactl.report.fleet;

    opens org.vdpactl.report.fleet to com.fasterxml.jackson.databind;
}
