package org.vdpactl.fake.device;

import java.util.List;
import java.util.Map;

import org.vdpactl.fake.model.DriverModel;
import org.vdpactl.fake.model.MapEntry;

/**
 * The parent driver's {@code struct vdpa_config_ops} (include/linux/vdpa.h) as the fake's generic device
 * ({@link FakeVdpaDevice}: what drivers/vdpa/vdpa.c and drivers/vhost/vdpa.c do for every driver) calls it.
 * One implementation per driver, each method citing the driver function it mirrors: {@link VdpaSimOps}
 * (drivers/vdpa/vdpa_sim) and {@link Mlx5VnetOps} (drivers/vdpa/mlx5/net/mlx5_vnet.c). Per-kernel differences
 * of a driver are its facts ({@link DriverFacts}), not flags of the generic device. A new driver is one class
 * implementing this interface plus its facts.
 *
 * <p>Every call runs under the device mutex. The generic device keeps the state every driver has (status,
 * negotiated features, the indexed queues, the config space, the per-ASID maps) and the fake's machinery
 * (fault injection, the simulated clock: {@link FakeVdpaDevice#charge}); an implementation answers what its
 * driver answers, changes the driver's own state, and charges each op it runs to the device's latency model
 * (its collaborator, {@link FakeVdpaDevice#model()}), so what an op costs is decided where the op is.
 */
public interface VdpaConfigOps {

    /** The driver's name ("vdpa_sim", "mlx5_vnet"): the module the ops come from. */
    String driver();

    /**
     * The device's latency model was just made (on its first use, see {@link FakeVdpaDevice#model()}): what the
     * driver sets in it before any op reaches it. Nothing by default.
     */
    default void modelMade(DriverModel model) {
    }

    /** The device-side ring an op at {@code index} reaches (mlx5: its own CVQ at ctrl_vq_idx). */
    FakeVdpaDevice.DeviceVq vq(int index);

    /**
     * The features dev_add fills the net config space by (MTU, status, max_virtqueue_pairs only with their
     * feature among these): {@code ConfigSpace.ALL_FIELDS} for a driver that fills them all.
     */
    long configFieldFeatures(long deviceFeatures);

    /** The mgmtdev's dev_add work on the new device ({@code charged} false for a device that existed at boot). */
    void devAdd(int dataVqs, boolean charged);

    /** The mgmtdev's dev_del work. */
    void devDel();

    /** The control virtqueue's index now (meaningful only where the profile's last queue is the CVQ). */
    int ctrlVqIndex();

    /** Whether the driver accepts a per-queue op at this index (already known to be below nvqs). */
    boolean isIndexValid(int index);

    /** get_vq_ready. */
    boolean getVqReady(int index);

    /** set_vq_num (throws {@link org.vdpactl.fake.errno.KernelError} where the driver's work fails; the op returns void). */
    void setVqNum(int index, int num);

    /** set_vq_address. */
    void setVqAddress(int index, long desc, long driver, long device);

    /** set_vq_ready (a driver that ignores the call returns; a failure leaves the queue not ready). */
    void setVqReady(int index, boolean ready);

    /** set_vq_state: the avail index (split) or the packed pair, as vhost-vdpa passes it. */
    void setVqState(int index, long state);

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

    /** set_driver_features of the features the device keeps (the generic checks passed). */
    void setDriverFeatures(long stored);

    /**
     * compat_reset: the driver's part and its cost, before the generic queue state is cleared. Throws when the
     * driver fails it (the device state is then left as it was).
     */
    void reset(boolean cleanMap);

    /**
     * set_status with a non-zero value: returns the status the driver holds afterwards (the op returns nothing
     * in the kernel: a driver that fails DRIVER_OK adds FAILED to the old status instead), having done its work
     * after the change (e.g. a config interrupt).
     */
    int setStatus(int oldStatus, int newStatus);

    /** suspend: the driver stops its queues (throws as the driver fails it). */
    void suspend();

    /** resume: the driver's queues run again (throws as the driver fails it); the generic device replays pending kicks. */
    void resume();

    /** set_group_asid. */
    void setGroupAsid(int group, int asid);

    /** set_map: the whole table of one ASID. */
    void setMap(int asid, List<MapEntry> table);

    /** reset_map: the ASID returns to the driver's initial translation. */
    void resetMap(int asid);

    /** dma_map of one entry. */
    void dmaMap(int asid, MapEntry entry);

    /** dma_unmap of one entry. */
    void dmaUnmap(int asid, MapEntry entry);

    /** get_config: {@code length} bytes of the config space at {@code offset} as the driver presents it now. */
    byte[] getConfig(int offset, int length);

    /** set_config. */
    void setConfig(int offset, byte[] data);

    /** A port change event of the device's PCI function (its link went up or down): the driver's notifier. */
    void portChanged();

    /**
     * The management device's dev_set_attr of a MAC: returns the device features after it, or throws
     * {@link org.vdpactl.fake.errno.KernelError} as the driver refuses it.
     */
    long setAttrMac(byte[] mac, int status, long deviceFeatures);

    /** The ring the driver's control-virtqueue handler serves now, or null when it serves none (not ready, no CTRL_VQ). */
    FakeVdpaDevice.DeviceVq cvqToServe();

    /** The map (null: the initial translation) the driver's control-virtqueue handler reads the ring through. */
    List<MapEntry> cvqMap();

    /** A control command whose header was read (the driver's counting). */
    void cvqCommandRead();

    /** A control command completed: whether the handler signals the CVQ's interrupt for it. */
    boolean cvqCommandDone(int availFlags);

    /** VIRTIO_NET_CTRL_MAC / MAC_ADDR_SET: the ack (VIRTIO_NET_OK or _ERR), the config MAC changed on OK. */
    byte cvqMacAddrSet(byte[] mac);

    /** VIRTIO_NET_CTRL_MQ / VQ_PAIRS_SET: the ack. */
    byte cvqVqPairsSet(int pairs);

    /** VIRTIO_NET_CTRL_VLAN ADD or DEL of a VLAN id: the ack (VIRTIO_NET_ERR where the driver handles no VLAN class). */
    byte cvqVlan(boolean add, int vid);

    /**
     * get_vendor_vq_stats answered by the driver's queue rules, or null when the generic per-profile table
     * answers (vdpa_sim).
     */
    List<Map.Entry<String, Long>> vendorVqStats(DeviceProfile.VendorStats stats, int index);
}
