/**
 * The vhost-vdpa client library: device handles over any {@link org.vdpactl.sys.Syscalls}
 * ({@code org.vdpactl.vhost}), the netlink and generic-netlink codec ({@code org.vdpactl.netlink}) and
 * the vdpa management family like iproute2's {@code vdpa} ({@code org.vdpactl.mgmt}). The downtime
 * rehearsal built on it is module {@code org.vdpactl.orchestra}.
 */
module org.vdpactl.client {
    requires transitive org.vdpactl.abi;
    requires transitive org.slf4j;
    requires com.fasterxml.jackson.databind;

    exports org.vdpactl.vhost;
    exports org.vdpactl.netlink;
    exports org.vdpactl.mgmt;
}
