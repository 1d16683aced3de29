package org.vdpactl.fake.device;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.vdpactl.fake.model.MapEntry;

/**
 * mlx5_vdpa's {@code struct mlx5_control_vq} (drivers/vdpa/mlx5/core/mlx5_vdpa.h): one per device,
 * addressed at whichever index {@code ctrl_vq_idx} names at the moment of the call (VQ 2 until
 * VIRTIO_NET_F_MQ is negotiated, then 2 × pairs), not a slot of the indexed queues. What a reset
 * clears and what it keeps is the driver's (mlx5_vdpa_reset, 6.1.192 mlx5_vnet.c l. 2577-2605;
 * mlx5_vdpa_compat_reset, 6.12.118 l. 3269-3309): {@code ready} and the two software counters go,
 * the ring size, addresses and {@code last_avail_idx} stay for the next opener.
 */
final class Mlx5ControlVq {
    /**
     * The ring: {@code vring.vring.num}, {@code last_avail_idx} (as {@code state}), ready, event_cb, and the three
     * addresses the vringh serves, which setup_cvq_vring copies from {@link #address} at DRIVER_OK.
     */
    final FakeVdpaDevice.DeviceVq ring = new FakeVdpaDevice.DeviceVq();
    /**
     * {@code desc_addr}, {@code driver_addr}, {@code device_addr}: what mlx5_vdpa_set_vq_address stores for the CVQ
     * (6.1.192 mlx5_vnet.c l. 1959-1963; 6.12.118 l. 2460-2465), read only by the next setup_cvq_vring.
     */
    final long[] address = new long[3];
    /** {@code received_desc}: chains whose header was read (mlx5_cvq_kick_handler). */
    long receivedDesc;
    /** {@code completed_desc}: chains whose ack was pushed. */
    long completedDesc;

    /**
     * The tagged MAC/VLAN steering rules the CVQ's VLAN_ADD installed, by (MAC, VLAN id); mac_vlan_add refuses a
     * rule that exists (-EEXIST, 6.1.192 mlx5_vnet.c l. 1550-1551; 6.12.118 l. 2034-2035). teardown_steering clears
     * them, which the fake does at every reset (6.1 tears the steering down at every reset; 6.12 when the
     * reset re-creates the VQs, i.e. after DRIVER_OK).
     */
    final Set<String> vlanRules = new HashSet<>();

    /**
     * {@code cvq->iotlb}: the driver's own copy of the IOTLB of the ASID the CVQ group had when it was last copied
     * (set_map of that ASID; 6.12+ also set_group_asid to an ASID with an MR); null = the initial translation.
     */
    List<MapEntry> iotlb;

    /** What the driver's reset does to the CVQ (its IOTLB only with a clean map: {@link Mlx5VnetOps#reset}). */
    void reset() {
        vlanRules.clear();
        ring.ready = false;
        ring.callback = null; // as the fake's reset does for every vq; mlx5 keeps cvq->event_cb (not modelled)
        receivedDesc = 0;
        completedDesc = 0;
    }

    /**
     * setup_cvq_vring at DRIVER_OK: vringh_init_iotlb on the addresses set last, keeping last_avail_idx (6.1.192
     * mlx5_vnet.c l. 2509-2527; 6.12.118 l. 3167-3185); until the next DRIVER_OK the CVQ serves this ring, whatever
     * address SET_VRING_ADDR gives it meanwhile.
     */
    void setupVring() {
        ring.descArea = address[0];
        ring.driverArea = address[1];
        ring.deviceArea = address[2];
    }

    /**
     * setup_cvq_vring's vringh_init_iotlb accepts the ring size (drivers/vhost/vringh.c __vringh_init:
     * "Bad ring size" for 0, above 0xffff or not a power of 2).
     */
    boolean ringSizeValid() {
        int num = ring.num;
        return num > 0 && num <= 0xFFFF && (num & (num - 1)) == 0;
    }
}
