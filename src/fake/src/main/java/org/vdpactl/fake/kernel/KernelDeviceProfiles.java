package org.vdpactl.fake.kernel;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.vdpactl.abi.KernelProfile;
import org.vdpactl.abi.KernelProfile.DriverDelta;
import org.vdpactl.abi.KernelProfiles;
import org.vdpactl.fake.device.DeviceProfile;

/**
 * A device profile as a driver on one kernel release can have it. The release's facts are the ABI
 * module's ({@link KernelProfile}); what they mean for a fake device is the fake's own business, so
 * this step lives here and not beside the facts.
 */
public final class KernelDeviceProfiles {
    private KernelDeviceProfiles() {
    }

    /**
     * The device profile as a driver on this kernel can have it: the optional ops its driver declares
     * ({@link DeviceProfile.Device#driverOps()}) less those the kernel's {@code vdpa_config_ops} lacks (no resume,
     * reset_map, get_vq_size, get_vq_desc_group, get_backend_features or bind_mm on 6.1: such a device pins pages,
     * PA mode), and the simulator drivers lose what their older versions did not offer. An mlx5 profile first
     * takes this version's mlx5_vdpa facts ({@link Mlx5KernelFacts}), which make its driver mlx5_vnet.
     */
    public static DeviceProfile adapt(KernelProfile kernel, DeviceProfile profile) {
        DeviceProfile p = Mlx5KernelFacts.DRIVER_MODEL.equals(profile.mgmtdev().driverModel())
                ? Mlx5KernelFacts.forKernel(kernel.version()).map(f -> f.applyTo(profile)).orElse(profile) : profile;
        DeviceProfile.Device d = p.device();
        DeviceProfile.Ops ops = d.driverOps().keeping(op -> onKernel(kernel, op));
        DeviceProfile.Groups g = d.groups();
        DeviceProfile.Groups groups = kernel.hasConfigOp("get_vq_desc_group") ? g : g.withoutDescGroups();
        Optional<DriverDelta> delta = kernel.driver(p.name());
        DeviceProfile.Mgmt m = p.mgmtdev();
        List<String> supported = m.supportedFeatures();
        List<String> features = d.features();
        DeviceProfile.VendorStats stats = d.vendorStats();
        DeviceProfile.Config config = d.config();
        if (delta.isPresent()) {
            supported = without(supported, delta.get().removeFeatures());
            features = features == null ? null : without(features, delta.get().removeFeatures());
            stats = delta.get().vendorStats() ? stats : null;
            config = delta.get().configSize() == null ? config : config.withSize(delta.get().configSize());
        }
        return p.withMgmtdev(m.withSupportedFeatures(supported))
                .withDevice(d.withFeatures(features).withGroups(groups).withConfig(config).withOps(ops).withVendorStats(stats));
    }

    /**
     * Whether the kernel's vdpa.h has an optional member: the profiles list the members that came within the
     * profiled releases; one that no profile lists (set_map, dma_map, get_vq_notification) is older than all of them.
     */
    private static boolean onKernel(KernelProfile kernel, String op) {
        return kernel.hasConfigOp(op) || KernelProfiles.all().stream().noneMatch(k -> k.hasConfigOp(op));
    }

    private static List<String> without(List<String> list, List<String> removed) {
        List<String> out = new ArrayList<>(list);
        out.removeAll(removed);
        return List.copyOf(out);
    }
}
