package org.vdpactl.conformance.netlink;

import java.util.List;
import java.util.function.BooleanSupplier;
import org.vdpactl.fake.inside.FakeInside;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;
import org.vdpactl.abi.KernelProfile;
import org.vdpactl.fake.FakeKernel;
import org.vdpactl.fake.FakeProcess;
import org.vdpactl.fake.device.DeviceNode;
import org.vdpactl.fake.netlink.FakeNetlink;
import org.vdpactl.fake.state.Inventory;
import org.vdpactl.sys.Syscalls;

/**
 * The netlink conformance suite on the fake kernel, once per kernel profile (oldest first): a fresh kernel per case holding the VM
 * lane's setup (vdpasim_net with vdpa0, MAC 02:00:00:00:00:01; vdpasim_blk with vdpa1; the
 * vduse mgmtdev of a kernel built with VDUSE, the builder's default), one
 * process with CAP_NET_ADMIN and one without.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("org.vdpactl.abi.KernelProfiles#all")
public class FakeNetlinkConformanceTest extends NetlinkConformanceSuite {
    @Parameter
    KernelProfile profile;

    @Override
    protected KernelProfile kernel() {
        return profile;
    }

    static Inventory vmLaneInventory() {
        return new Inventory(
                List.of(new Inventory.Mgmt("vdpasim_net", null, "vdpasim_net", null),
                        new Inventory.Mgmt("vdpasim_blk", null, "vdpasim_blk", null)),
                List.of(new Inventory.Device("vdpa0", "vdpasim_net", "02:00:00:00:00:01", null, null, null, null, null),
                        new Inventory.Device("vdpa1", "vdpasim_blk", null, null, null, null, null, null)));
    }

    @Override
    protected NetlinkBackend backend() {
        FakeKernel kernel = FakeInside.inventory(FakeKernel.builder().kernel(kernel()), vmLaneInventory()).build();
        FakeNetlink netlink = FakeNetlink.install(kernel);
        FakeProcess root = kernel.newProcess();
        FakeProcess nobody = kernel.newProcess();
        netlink.setCapNetAdmin(nobody, false);
        return new NetlinkBackend() {
            @Override
            public Syscalls privileged() {
                return root;
            }

            @Override
            public Syscalls unprivileged() {
                return nobody;
            }

            @Override
            public BooleanSupplier deleterParked(String nodePath) {
                int minor = Integer.parseInt(nodePath.substring(nodePath.lastIndexOf('-') + 1));
                DeviceNode node = FakeInside.bus(kernel).node(minor).orElseThrow().node();
                return node::removalWaitsForClose;
            }

            @Override
            public void close() {
                try {
                    root.close();
                    nobody.close();
                } finally {
                    kernel.close();
                }
            }
        };
    }
}
