/**
 * The documented examples as a user's module: it requires the library modules a program names and reaches only
 * what they export to everyone (a package exported to vdpactl's own modules alone is "not visible" here).
 */
module org.vdpactl.examples {
    requires org.vdpactl.client;
    requires org.vdpactl.fake;

    exports com.example.suspendpolicy;
    exports org.vdpactl.examples;
}
