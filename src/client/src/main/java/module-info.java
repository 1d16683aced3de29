/**
 * The vhost-vdpa client library: device handles over any {@link org.vdpactl.sys.Syscalls}
 * ({@code org.vdpactl.vhost}), the netlink and generic-netlink codec ({@code org.vdpactl.netlink}),
 * the vdpa management family like iproute2's {@code vdpa} ({@code org.vdpactl.mgmt}) and the
 * downtime rehearsal with its result model ({@code org.vdpactl.orchestra}).
 */
module org.vdpactl.client {
    requires transitive org.vdpactl.abi;
    requires transitive org.slf4j;
    requires HdrHistogram;
    requires com.fasterxml.jackson.databind;

    exports org.vdpactl.vhost;
    exports org.vdpactl.netlink;
    exports org.vdpactl.mgmt;
    exports org.vdpactl.orchestra;
}
