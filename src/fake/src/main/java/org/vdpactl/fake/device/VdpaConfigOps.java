package org.vdpactl.fake.device;

/**
 * The parent driver's {@code struct vdpa_config_ops} (include/linux/vdpa.h) as the fake's generic device
 * ({@link FakeVdpaDevice}: what drivers/vdpa/vdpa.c and drivers/vhost/vdpa.c do for every driver) calls it.
 * One implementation per driver, each method citing the driver function it mirrors: {@link VdpaSimOps}
 * (drivers/vdpa/vdpa_sim) and {@link Mlx5VnetOps} (drivers/vdpa/mlx5/net/mlx5_vnet.c). Per-kernel differences
 * of a driver are its facts ({@link DriverFacts}), not flags of the generic device.
 *
 * <p>Every call runs under the device mutex. The generic device keeps the state every driver has (status,
 * negotiated features, the indexed queues, the maps) and charges each op to the device's latency model; an
 * implementation answers what its driver answers and changes the driver's own state.
 */
public interface VdpaConfigOps {

    /** The driver's name ("vdpa_sim", "mlx5_vnet"): the module the ops come from. */
    String driver();

    /** The device-side ring an op at {@code index} reaches (mlx5: its own CVQ at ctrl_vq_idx). */
    FakeVdpaDevice.DeviceVq vq(int index);

    /**
     * The features dev_add fills the net config space by (MTU, status, max_virtqueue_pairs only with their
     * feature among these): {@code ConfigSpace.ALL_FIELDS} for a driver that fills them all.
     */
    long configFieldFeatures(long deviceFeatures);

    /** The control virtqueue's index now (meaningful only where the profile's last queue is the CVQ). */
    int ctrlVqIndex();

    /** Whether the driver accepts a per-queue op at this index (already known to be below nvqs). */
    boolean isIndexValid(int index);

    /** get_vq_ready. */
    boolean getVqReady(int index);

    /** set_vq_num. */
    void setVqNum(int index, int num);

    /** set_vq_ready (the cost was charged; a driver that ignores the call returns). */
    void setVqReady(int index, boolean ready);

    /** set_vq_cb. */
    void setVqCb(int index, Runnable interrupt);

    /** get_vq_state: what the driver reports for the ring {@link #vq} reaches. */
    long getVqState(int index);

    /** get_vq_notification: whether this index has a doorbell page (the op exists: profile ops.doorbell). */
    boolean getVqNotification(int index);

    /** What the driver's kick_vq does with a kick of a live device. */
    enum Kick { RUN, DEFER, DROP }

    /**
     * kick_vq of a device with DRIVER_OK whose kick reaches the device's work.
     *
     * @param suspended the device is suspended
     */
    Kick kickVq(int index, boolean suspended);

    /** The driver's part of reset (after the generic queue state was cleared). */
    void reset();

    /** set_status: the driver's DRIVER_OK set-up fails before anything runs (the status becomes FAILED). */
    boolean driverOkSetupFails(int oldStatus, int newStatus);

    /** set_status: the driver's work after a successful status change (e.g. a config interrupt). */
    void statusChanged(int oldStatus, int newStatus);

    /** suspend: the driver's part after its queues stopped. */
    void suspend();

    /** resume: the driver's part after its queues run again. */
    void resume();

    /**
     * The management device's dev_set_attr of a MAC: returns the device features after it, or throws
     * {@link org.vdpactl.fake.errno.KernelError} as the driver refuses it.
     */
    long setAttrMac(byte[] mac, int status, long deviceFeatures);

    /** The driver's own control virtqueue (mlx5's struct mlx5_control_vq), or null (vdpa_sim's CVQ is an indexed queue). */
    Mlx5ControlVq ownControlVq();

    /**
     * get_vendor_vq_stats answered by the driver's queue rules, or null when the generic per-profile table
     * answers (vdpa_sim).
     */
    java.util.List<java.util.Map.Entry<String, Long>> vendorVqStats(DeviceProfile.VendorStats stats, int index);
}
