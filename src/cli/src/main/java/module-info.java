/**
 * The vdpactl command line. Not a library: its module descriptor is here so that the compiler keeps
 * the CLI to the libraries' exported API; the release runs it from the shaded jar on the class path.
 */
module org.vdpactl.cli {
    requires org.vdpactl.abi;
    requires org.vdpactl.client;
    requires org.vdpactl.fake;
    requires org.vdpactl.orchestra;
    requires org.vdpactl.report;
    requires org.vdpactl.sim;
    requires info.picocli;
    requires jdk.unsupported; // sun.misc.Signal: SIGINT/SIGTERM stop a rehearsal at a safe point
    requires org.slf4j;
    requires com.fasterxml.jackson.databind;
    requires org.jnrproject.posix; // the CLI's host questions (org.vdpactl.cli.host); never a library module's
    requires org.jnrproject.constants;

    provides org.slf4j.spi.SLF4JServiceProvider with org.vdpactl.cli.log.StderrLoggerProvider;

    exports org.vdpactl.cli;
    exports org.vdpactl.cli.doctor;
    exports org.vdpactl.cli.host;
    exports org.vdpactl.cli.mgmt;
    exports org.vdpactl.cli.migrate;
    exports org.vdpactl.cli.rehearse;
    exports org.vdpactl.cli.vhost;
    // to SLF4J alone: Main names the provider (slf4j.provider), which SLF4J then makes by reflection
    exports org.vdpactl.cli.log to org.slf4j;

    opens org.vdpactl.cli to info.picocli, com.fasterxml.jackson.databind;
    opens org.vdpactl.cli.doctor to info.picocli, com.fasterxml.jackson.databind;
    opens org.vdpactl.cli.mgmt to info.picocli, com.fasterxml.jackson.databind;
    opens org.vdpactl.cli.migrate to info.picocli, com.fasterxml.jackson.databind;
    opens org.vdpactl.cli.rehearse to info.picocli, com.fasterxml.jackson.databind;
    opens org.vdpactl.cli.vhost to info.picocli, com.fasterxml.jackson.databind;
}
