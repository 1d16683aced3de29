package org.vdpactl.fake.model;

import java.util.List;

/**
 * The hardware behind a fake vDPA device, at the level of {@code struct vdpa_config_ops}: the fake
 * vhost-vdpa layer calls one method per driver op (under the device lock, as the kernel does) and
 * charges the returned cost to the caller's clock. A model may also refuse an op the way its driver
 * does by throwing {@link org.vdpactl.fake.errno.KernelError} (mlx5: resume of a VQ in ERR → EINVAL).
 *
 * <p>vdpa_sim profiles use {@link #FREE}-like models (no firmware); the mlx5 presets
 * ({@code mlx5-pre612}, {@code mlx5-612}) follow docs/spec/mlx5-model.md. Implementations keep their
 * own per-device state (VQ firmware states, memory regions, notifier) and are created per device.
 */
public interface DriverModel {

    /** mgmtdev dev_add (VDPA_CMD_DEV_NEW) for a device with {@code dataVqs} data virtqueues. */
    default OpCost devAdd(int dataVqs) {
        return OpCost.FREE;
    }

    /** mgmtdev dev_del. */
    default OpCost devDel() {
        return OpCost.FREE;
    }

    /** set_driver_features (SET_FEATURES). */
    default OpCost setDriverFeatures(long features) {
        return OpCost.FREE;
    }

    /** set_status with a non-zero status; {@code oldStatus} is the status before. */
    default OpCost setStatus(int oldStatus, int newStatus) {
        return OpCost.FREE;
    }

    /**
     * set_status with DRIVER_OK that the driver fails before setting anything up (mlx5: the control
     * virtqueue's ring cannot be initialised): the driver's error path, with FAILED added to {@code oldStatus}.
     */
    default OpCost driverOkSetupFailed(int oldStatus) {
        return OpCost.FREE;
    }

    /**
     * The status the driver holds after a {@link #setStatus} that returned normally. set_status
     * returns nothing in the kernel, so a driver that fails it shows it here (mlx5 adds FAILED when
     * DRIVER_OK fails). Default: the requested status.
     */
    default int statusAfterSetStatus(int requested) {
        return requested;
    }

    /** compat_reset; {@code cleanMap} unless IOTLB_PERSIST was acked. */
    default OpCost reset(boolean cleanMap) {
        return OpCost.FREE;
    }

    default OpCost suspend() {
        return OpCost.FREE;
    }

    default OpCost resume() {
        return OpCost.FREE;
    }

    /** set_vq_num. */
    default OpCost setVqNum(int index, int num) {
        return OpCost.FREE;
    }

    /** set_vq_address. */
    default OpCost setVqAddress(int index) {
        return OpCost.FREE;
    }

    /** set_vq_state (SET_VRING_BASE). */
    default OpCost setVqState(int index, long base) {
        return OpCost.FREE;
    }

    /** get_vq_state (GET_VRING_BASE). */
    default OpCost getVqState(int index) {
        return OpCost.FREE;
    }

    /**
     * The index get_vq_state reports for VQ {@code index} after {@link #getVqState} succeeded;
     * {@code deviceState} is the last SET_VRING_BASE (or the CVQ's last avail index). Software devices
     * (vdpa_sim) report it as it is; mlx5 reads its FW object.
     */
    default long reportedVqState(int index, long deviceState) {
        return deviceState;
    }

    /** set_vq_ready (SET_VRING_ENABLE). */
    default OpCost setVqReady(int index, boolean ready) {
        return OpCost.FREE;
    }

    /** set_group_asid. */
    default OpCost setGroupAsid(int group, int asid) {
        return OpCost.FREE;
    }

    /** set_map: the complete table of one address space (pushed at BATCH_END or per unbatched message). */
    default OpCost setMap(int asid, List<MapEntry> table) {
        return OpCost.FREE;
    }

    /**
     * reset_map: the ASID's translation returns to the device's initial one. vhost-vdpa calls it
     * when it destroys an address space (at close of the device node).
     */
    default OpCost resetMap(int asid) {
        return OpCost.FREE;
    }

    /** The CVQ's VIRTIO_NET_CTRL_MQ_VQ_PAIRS_SET. */
    default OpCost changeNumQueuePairs(int pairs) {
        return OpCost.FREE;
    }

    /**
     * What the op that just failed (threw {@link org.vdpactl.fake.errno.KernelError}) cost before it failed:
     * a firmware timeout blocks the caller for the whole command timeout. The fake charges it too.
     */
    default OpCost lastFailureCost() {
        return OpCost.FREE;
    }

    /** False when the driver has no resume op (mlx5 firmware without freeze_to_rdy): RESUME is then not offered. */
    default boolean hasResumeOp() {
        return true;
    }

    /**
     * Whether the device runs data virtqueue {@code index} (mlx5: its FW object is RDY), which its
     * vendor counters need (counter_set_query: EAGAIN otherwise). Software devices always do.
     */
    default boolean vqRunning(int index) {
        return true;
    }

    /** False when the driver drops get_vq_desc_group (mlx5 FW without desc_group_mkey_supported). */
    default boolean hasDescGroupOp() {
        return true;
    }

    /** A model with no cost at all (vdpa_sim: software only). */
    DriverModel FREE = new DriverModel() {
    };
}
