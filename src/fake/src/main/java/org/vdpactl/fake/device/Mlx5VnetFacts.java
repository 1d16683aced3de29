package org.vdpactl.fake.device;

import java.util.List;
import java.util.Map;

import org.vdpactl.fake.bus.Provisioning;
import org.vdpactl.fake.errno.KernelError;
import org.vdpactl.fake.mlx5.FailedMapChange;
import org.vdpactl.ffi.gen.vhost.vhost_h;
import org.vdpactl.sys.Errno;

/**
 * What one kernel version's mlx5_vnet does differently from another's (the "rules" of
 * kernels/mlx5-VERSION.json, each with its source line there; docs/spec/mlx5-kernels.md). What every version
 * does alike is {@link Mlx5VnetOps}'s behaviour.
 *
 * @param macFeature                null (features as given), "addWhenMacSet" (F_MAC offered only with a non-zero
 *                                  MAC: 6.1) or "requireMac" (a zero MAC drops F_MAC, or with provisioned features
 *                                  a provisioned F_MAC is EINVAL: 6.12+)
 * @param configGatedByFeatures     MTU, status and max_virtqueue_pairs are filled only with F_MTU, F_STATUS and
 *                                  F_MQ among the device features (else 0)
 * @param configInterruptOnDriverOk the config interrupt fires after DRIVER_OK when F_STATUS was negotiated
 * @param configInterruptOnResume   the config interrupt fires after resume
 * @param setMacBusyAfterDriverOk   DEV_ATTR_SET of a MAC is EBUSY after DRIVER_OK
 * @param setMacAddsMacFeature      DEV_ATTR_SET of a MAC adds VIRTIO_NET_F_MAC to the device features
 * @param cvqIotlbAtGroupAsid       SET_GROUP_ASID of the CVQ group to an ASID that has an MR copies that ASID's
 *                                  IOTLB for the CVQ at once (else only the next set_map of that ASID does)
 * @param linkNotifierAtDevAdd      the port-event notifier is registered at dev add and unregistered for good by
 *                                  SUSPEND (6.1); else at DRIVER_OK with F_STATUS until reset, events ignored
 *                                  while suspended (6.12+)
 * @param failedMapChange           what a map change whose VQ re-creation fails leaves in the ASID: "dropNew" (no MR:
 *                                  6.1), "restoreOld" (the MR before the change: 6.12.118), "keepNew" (the MR of the
 *                                  failed map: 7.2.13); {@link FailedMapChange}
 */
public record Mlx5VnetFacts(String macFeature, boolean configGatedByFeatures, boolean configInterruptOnDriverOk,
                            boolean configInterruptOnResume, boolean setMacBusyAfterDriverOk,
                            boolean setMacAddsMacFeature, boolean cvqIotlbAtGroupAsid,
                            boolean linkNotifierAtDevAdd, String failedMapChange) implements DriverFacts {
    private static final Map<String, FailedMapChange> FAILED_MAP_CHANGE = Map.of("dropNew", FailedMapChange.DROP_NEW,
            "restoreOld", FailedMapChange.RESTORE_OLD, "keepNew", FailedMapChange.KEEP_NEW);

    public Mlx5VnetFacts {
        if (macFeature != null && !List.of("addWhenMacSet", "requireMac").contains(macFeature)) {
            throw new IllegalArgumentException("macFeature must be absent, addWhenMacSet or requireMac, got " + macFeature);
        }
        if (!FAILED_MAP_CHANGE.containsKey(failedMapChange)) {
            throw new IllegalArgumentException("failedMapChange must be dropNew, restoreOld or keepNew, got " + failedMapChange);
        }
    }

    /** {@link #failedMapChange} as the latency model takes it. */
    public FailedMapChange mapChangeFailure() {
        return FAILED_MAP_CHANGE.get(failedMapChange);
    }

    @Override
    public VdpaConfigOps newOps(FakeVdpaDevice device) {
        return new Mlx5VnetOps(device, this);
    }

    @Override
    public DeviceProfile.Ops configOps() {
        return Mlx5VnetOps.CONFIG_OPS;
    }

    /**
     * mlx5_vdpa_dev_add: the provisioned MAC, else mlx5_query_nic_vport_mac_address (the function's MAC); 6.12+ skip
     * the query when features were provisioned without F_MAC (6.1.192 mlx5_vnet.c l. 3141-3147; 6.12.118
     * l. 3930-3938).
     */
    @Override
    public byte[] devAddMac(Provisioning provisioning, byte[] functionMac) {
        if (provisioning.mac() != null) {
            return provisioning.mac();
        }
        long fMac = 1L << vhost_h.VIRTIO_NET_F_MAC();
        boolean query = !"requireMac".equals(macFeature) || provisioning.features() == null
                || (provisioning.features() & fMac) != 0;
        return query ? functionMac : null;
    }

    /** mlx5_vdpa_dev_add: VIRTIO_NET_F_MAC as the driver ties it to the MAC it found (provisioned or the function's). */
    @Override
    public long devAddFeatures(long features, boolean hasMac, boolean provisioned, String mgmtName) {
        if (macFeature == null) {
            return features;
        }
        long fMac = 1L << vhost_h.VIRTIO_NET_F_MAC();
        if (hasMac) {
            return "addWhenMacSet".equals(macFeature) ? features | fMac : features;
        }
        if (provisioned && (features & fMac) != 0 && "requireMac".equals(macFeature)) {
            throw KernelError.of(Errno.EINVAL, mgmtName + ": No mac address provisioned? (F_MAC without a MAC)");
        }
        return features & ~fMac;
    }
}
