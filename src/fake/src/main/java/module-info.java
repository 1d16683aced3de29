/**
 * The fake Linux kernel: a userspace kernel at the file-descriptor level that implements
 * {@link org.vdpactl.sys.Syscalls} ({@link org.vdpactl.fake.FakeProcess}) and answers vhost-vdpa
 * ioctls, IOTLB writes and vdpa generic-netlink messages as the kernel release of its
 * {@link org.vdpactl.abi.KernelProfile} does. It reads the ABI module only, never the client, so that
 * a mistake in a client table is not made identically here.
 *
 * <p>API: {@code org.vdpactl.fake} (the kernel and its processes) and {@code org.vdpactl.fake.fault}
 * (fault rules). Everything else is the fake's inside, exported only to vdpactl's own modules.
 */
module org.vdpactl.fake {
    requires transitive org.vdpactl.abi;
    requires org.slf4j;
    requires com.fasterxml.jackson.databind;

    exports org.vdpactl.fake;
    exports org.vdpactl.fake.fault;
    exports org.vdpactl.fake.mlx5 to org.vdpactl.sim, org.vdpactl.cli, org.vdpactl.testkit;
    exports org.vdpactl.fake.model to org.vdpactl.sim, org.vdpactl.cli, org.vdpactl.testkit;
    exports org.vdpactl.fake.device to org.vdpactl.sim, org.vdpactl.cli, org.vdpactl.testkit;
    exports org.vdpactl.fake.netlink to org.vdpactl.sim, org.vdpactl.cli, org.vdpactl.testkit;
    exports org.vdpactl.fake.state to org.vdpactl.sim, org.vdpactl.cli, org.vdpactl.testkit;
    exports org.vdpactl.fake.inside to org.vdpactl.sim, org.vdpactl.cli, org.vdpactl.testkit;
    exports org.vdpactl.fake.vfs to org.vdpactl.sim, org.vdpactl.cli, org.vdpactl.testkit;

    // the data the fake reads: device profiles and the state file with the ABI module's strict reader (RecordJson),
    // fault rules with Jackson; the state is written with Jackson
    opens org.vdpactl.fake.device to com.fasterxml.jackson.databind, org.vdpactl.abi;
    opens org.vdpactl.fake.fault to com.fasterxml.jackson.databind;
    opens org.vdpactl.fake.state to com.fasterxml.jackson.databind, org.vdpactl.abi;
    opens org.vdpactl.fake.mlx5 to com.fasterxml.jackson.databind;
    // the mlx5 facts of each kernel (kernels/mlx5-*.json) are read into Mlx5KernelFacts records
    opens org.vdpactl.fake.kernel to com.fasterxml.jackson.databind, org.vdpactl.abi;

    uses org.vdpactl.fake.vfs.CharDeviceModule;
    uses org.vdpactl.fake.vfs.GenericNetlinkModule;
    provides org.vdpactl.fake.vfs.GenericNetlinkModule with org.vdpactl.fake.netlink.FakeNetlink.Module;
    provides org.vdpactl.fake.vfs.CharDeviceModule with org.vdpactl.fake.vhost.VhostVdpaDriver.Module;
}
