/**
 * The test kit: a JUnit 5 extension that gives a test a fresh fake kernel (release, devices, fault rules,
 * clock) and injects {@link org.vdpactl.sys.Syscalls}, the kernel and opened device or netlink handles as
 * parameters; a descriptor the test leaves open fails it, naming where it was opened. Opted in with
 * {@code -Dvdpactl.testkit.backend=kernel}, the same tests run on the running kernel, or fail with the reason
 * when it has no vhost-vdpa ({@code -Dvdpactl.testkit.requireKernel=false}: aborted instead).
 */
module org.vdpactl.testkit {
    requires transitive org.junit.jupiter.api;
    requires transitive org.vdpactl.client;
    requires transitive org.vdpactl.fake;
    requires org.opentest4j;

    exports org.vdpactl.testkit;
}
