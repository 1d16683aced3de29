package org.vdpactl.fake.device;

import java.util.List;
import java.util.Map;

import org.vdpactl.fake.errno.KernelError;
import org.vdpactl.ffi.gen.vhost.vhost_h;
import org.vdpactl.sys.Errno;

/**
 * mlx5_vnet's {@code mlx5_vdpa_ops} (drivers/vdpa/mlx5/net/mlx5_vnet.c; line numbers of 6.1.192 and
 * 6.12.117/118 in kernels/mlx5-VERSION.json's sources): the control virtqueue is the driver's own
 * {@link Mlx5ControlVq} at {@code ctrl_vq_idx}, per-queue ops check {@code is_index_valid}, suspend stops the
 * CVQ and a kick of a CVQ that is not ready is dropped. What differs per kernel is {@link Mlx5VnetFacts}; the
 * costs and the FW queue objects are the device's latency model ({@link org.vdpactl.fake.mlx5.Mlx5Device}),
 * a collaborator these ops consult, not their owner.
 */
final class Mlx5VnetOps implements VdpaConfigOps {
    /** The driver's name, as {@link #driver()} reports it. */
    static final String DRIVER = "mlx5_vnet";
    private static final int DRIVER_OK = vhost_h.VIRTIO_CONFIG_S_DRIVER_OK();
    private final FakeVdpaDevice dev;
    private final Mlx5VnetFacts facts;
    private final Mlx5ControlVq cvq = new Mlx5ControlVq();

    Mlx5VnetOps(FakeVdpaDevice dev, Mlx5VnetFacts facts) {
        this.dev = dev;
        this.facts = facts;
    }

    @Override
    public String driver() {
        return DRIVER;
    }

    /** This kernel's facts of the driver. */
    Mlx5VnetFacts facts() {
        return facts;
    }

    private boolean negotiated(int feature) {
        return (dev.negotiatedFeatures() & (1L << feature)) != 0;
    }

    /** mlx5_vdpa_set_vq_num, _address, _state, _ready: {@code is_ctrl_vq_idx} reaches the CVQ, else the data VQ. */
    @Override
    public FakeVdpaDevice.DeviceVq vq(int index) {
        return index == ctrlVqIndex() ? cvq.ring : dev.indexedVq(index);
    }

    /**
     * mlx5_vdpa_dev_add: 6.12+ fill mtu, status and max_virtqueue_pairs only with F_MTU, F_STATUS and F_MQ among
     * the device features; 6.1 always ({@link Mlx5VnetFacts#configGatedByFeatures}).
     */
    @Override
    public long configFieldFeatures(long deviceFeatures) {
        return facts.configGatedByFeatures() ? deviceFeatures : ConfigSpace.ALL_FIELDS;
    }

    /** mlx5_vnet.c ctrl_vq_idx: 2 unless VIRTIO_NET_F_MQ is in actual_features, then 2 × pairs; also before SET_FEATURES. */
    @Override
    public int ctrlVqIndex() {
        return negotiated(vhost_h.VIRTIO_NET_F_MQ()) ? dev.nvqs() - 1 : Math.min(2, dev.nvqs() - 1);
    }

    /** mlx5_vnet.c is_index_valid: VQ 0 and 1, VQ 2 with CTRL_VQ, every VQ with MQ. */
    @Override
    public boolean isIndexValid(int index) {
        if (negotiated(vhost_h.VIRTIO_NET_F_MQ())) {
            return true;
        }
        return index < (negotiated(vhost_h.VIRTIO_NET_F_CTRL_VQ()) ? 3 : 2);
    }

    /** mlx5_vdpa_get_vq_ready: false for an index is_index_valid refuses. */
    @Override
    public boolean getVqReady(int index) {
        return isIndexValid(index) && vq(index).ready;
    }

    /** mlx5_vdpa_set_vq_num: returns for an invalid index. */
    @Override
    public void setVqNum(int index, int num) {
        if (isIndexValid(index)) {
            vq(index).num = num;
        }
    }

    /**
     * mlx5_vdpa_set_vq_ready returns before SET_FEATURES (!actual_features) and for an invalid index
     * (6.1.192 mlx5_vnet.c l. 2031-2035; 6.12.118 l. 2533-2537).
     */
    @Override
    public void setVqReady(int index, boolean ready) {
        if (!isIndexValid(index) || dev.negotiatedFeatures() == 0) {
            return;
        }
        vq(index).setReady(ready);
    }

    /** mlx5_vdpa_set_vq_cb: no index check; at ctrl_vq_idx the CVQ's event_cb too. */
    @Override
    public void setVqCb(int index, Runnable interrupt) {
        dev.indexedVq(index).callback = interrupt;
        if (dev.spec().queues().lastIsCvq() && index == ctrlVqIndex()) {
            cvq.ring.callback = interrupt;
        }
    }

    /**
     * mlx5_vdpa_get_vq_state: the CVQ's last_avail_idx (which a reset keeps), or a data VQ's FW object as the
     * latency model holds it.
     */
    @Override
    public long getVqState(int index) {
        FakeVdpaDevice.DeviceVq vq = vq(index);
        return vq == cvq.ring ? vq.state : dev.model().reportedVqState(index, vq.state);
    }

    /**
     * mlx5_get_vq_notification: only an index is_index_valid accepts under the negotiated features and not the
     * CVQ (6.1.192 mlx5_vnet.c l. 2686-2705; 6.12.118 l. 3457-3479), so before SET_FEATURES only VQ 0 and 1.
     */
    @Override
    public boolean getVqNotification(int index) {
        return isIndexValid(index) && index != ctrlVqIndex();
    }

    /**
     * mlx5_vdpa_kick_vq: a kick of a CVQ that is not ready is dropped, not deferred; the CVQ worker looks at
     * cvq->ready only, which suspend cleared and only SET_VRING_ENABLE sets again (so a CVQ enabled after
     * SUSPEND runs).
     */
    @Override
    public Kick kickVq(int index, boolean suspended) {
        return vq(index).ready ? Kick.RUN : Kick.DROP;
    }

    /** mlx5_vdpa_reset / mlx5_vdpa_compat_reset: the CVQ's part ({@link Mlx5ControlVq#reset}). */
    @Override
    public void reset() {
        cvq.reset();
    }

    /**
     * mlx5_vdpa_set_status: with CTRL_VQ negotiated, setup_cvq_vring fails for a ring size vringh refuses
     * (6.1.192 mlx5_vnet.c l. 2509-2527; 6.12.118 l. 3167-3185).
     */
    @Override
    public boolean driverOkSetupFails(int oldStatus, int newStatus) {
        return (oldStatus & DRIVER_OK) == 0 && (newStatus & DRIVER_OK) != 0
                && negotiated(vhost_h.VIRTIO_NET_F_CTRL_VQ()) && !cvq.ringSizeValid();
    }

    /** mlx5_vdpa_set_status → register_link_notifier (6.12+): queue_link_work → update_carrier → config_cb. */
    @Override
    public void statusChanged(int oldStatus, int newStatus) {
        boolean driverOkNow = (oldStatus & DRIVER_OK) == 0 && (newStatus & DRIVER_OK) != 0
                && (newStatus & vhost_h.VIRTIO_CONFIG_S_FAILED()) == 0;
        if (driverOkNow && facts.configInterruptOnDriverOk() && negotiated(vhost_h.VIRTIO_NET_F_STATUS())) {
            dev.raiseConfigInterrupt();
        }
    }

    /** mlx5_vdpa_suspend → mlx5_vdpa_cvq_suspend: the CVQ stays not ready, through resume, until SET_VRING_ENABLE. */
    @Override
    public void suspend() {
        if (negotiated(vhost_h.VIRTIO_NET_F_CTRL_VQ())) {
            vq(ctrlVqIndex()).ready = false;
        }
    }

    /** mlx5_vdpa_resume (6.12+): queue_link_work → update_carrier → config_cb. */
    @Override
    public void resume() {
        if (facts.configInterruptOnResume()) {
            dev.raiseConfigInterrupt();
        }
    }

    /** mlx5_vdpa_set_attr: on 7.2 EBUSY after DRIVER_OK, else F_MAC joins mlx_features. */
    @Override
    public long setAttrMac(byte[] mac, int status, long deviceFeatures) {
        if (facts.setMacBusyAfterDriverOk() && (status & DRIVER_OK) != 0) {
            throw KernelError.of(Errno.EBUSY, dev.name() + ": device running, skip updating MAC");
        }
        return facts.setMacAddsMacFeature() ? deviceFeatures | 1L << vhost_h.VIRTIO_NET_F_MAC() : deviceFeatures;
    }

    /** mlx5_vnet.c struct mlx5_control_vq, which mlx5_cvq_kick_handler serves. */
    @Override
    public Mlx5ControlVq ownControlVq() {
        return cvq;
    }

    /**
     * mlx5_vdpa_get_vendor_vq_stats: EINVAL ("virtqueue index is not valid") outside is_index_valid, the
     * CVQ's software counters (received_desc, completed_desc) at ctrl_vq_idx, otherwise the FW counters of a
     * data VQ, which counter_set_query reads only from a RDY object (EAGAIN). The fake's hardware moves no
     * frames, so a data VQ's FW counters read 0.
     */
    @Override
    public List<Map.Entry<String, Long>> vendorVqStats(DeviceProfile.VendorStats vs, int queueIndex) {
        if (!dev.validVqIndex(queueIndex)) {
            throw KernelError.of(DeviceProfile.errno(vs.invalidQueueErrno()),
                    dev.name() + ": virtqueue index " + queueIndex + " is not valid");
        }
        List<String> names = vs.everyQueue();
        if (queueIndex == ctrlVqIndex()) {
            // zeroed by every reset, so by every open and close of the node
            return List.of(Map.entry(names.get(0), cvq.receivedDesc), Map.entry(names.get(1), cvq.completedDesc));
        }
        if (!dev.model().vqRunning(queueIndex)) {
            throw KernelError.of(Errno.EAGAIN, dev.name() + ": vq " + queueIndex + " is not RDY in the FW");
        }
        List<Map.Entry<String, Long>> out = new java.util.ArrayList<>();
        names.forEach(n -> out.add(Map.entry(n, 0L)));
        return out;
    }
}
