package org.vdpactl.fake.device;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vdpactl.fake.errno.KernelError;
import org.vdpactl.fake.fault.DriverCall;
import org.vdpactl.fake.model.DriverModel;
import org.vdpactl.fake.model.MapEntry;
import org.vdpactl.fake.mlx5.Mlx5Device;
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
    /**
     * The optional members mlx5_vdpa_ops sets (mlx5_vnet.c), with what mlx5_vdpa_get_backend_features returns and
     * no memory region before the first set_map. mlx5v_probe drops .resume and .get_vq_desc_group when the FW
     * lacks them: the latency model's hasResumeOp and hasDescGroupOp, asked per device.
     */
    static final DeviceProfile.Ops CONFIG_OPS = new DeviceProfile.Ops(
            Set.of("suspend", "resume", "reset_map", "set_map", "get_vq_notification", "get_backend_features"),
            List.of("VHOST_BACKEND_F_ENABLE_AFTER_DRIVER_OK"), "none");
    private static final Logger LOG = LoggerFactory.getLogger(Mlx5VnetOps.class);
    private static final int DRIVER_OK = vhost_h.VIRTIO_CONFIG_S_DRIVER_OK();
    private static final int FAILED = vhost_h.VIRTIO_CONFIG_S_FAILED();
    private static final int NO_INTERRUPT = vhost_h.VRING_AVAIL_F_NO_INTERRUPT();
    private static final long F_CTRL_VLAN = 1L << vhost_h.VIRTIO_NET_F_CTRL_VLAN();
    private final FakeVdpaDevice dev;
    private final Mlx5VnetFacts facts;
    /** NL_SET_ERR_MSG_MOD's prefix: KBUILD_MODNAME of mlx5_vnet.o, linked into mlx5_vdpa.ko (drivers/vdpa/mlx5/Makefile). */
    private static final String EXTACK_PREFIX = "mlx5_vdpa: ";
    private final Mlx5ControlVq cvq = new Mlx5ControlVq();
    /** mvdev->suspended: set by suspend whatever it answered, cleared by resume and reset (what event_handler reads). */
    private boolean driverSuspended;
    /** ndev->nb_registered: the port-event notifier listens ({@link Mlx5VnetFacts#linkNotifierAtDevAdd}). */
    private boolean notifierRegistered;
    /**
     * The data VQs of a device restored from the state whose FW model is not made yet (-1: none pending): its
     * dev_add reaches the model when the model is first made, so listing devices builds no model (start-up).
     */
    private int restoredDataVqs = -1;

    Mlx5VnetOps(FakeVdpaDevice dev, Mlx5VnetFacts facts) {
        this.dev = dev;
        this.facts = facts;
    }

    @Override
    public String driver() {
        return DRIVER;
    }

    /** mlx5_vdpa_change_map's error path differs per kernel: the FW model fails a map change as this one does. */
    @Override
    public void modelMade(DriverModel model) {
        if (model instanceof Mlx5Device fw) {
            fw.setFailedMapChange(facts.mapChangeFailure());
        }
        if (restoredDataVqs >= 0) {
            model.devAdd(restoredDataVqs); // uncharged, as the restore's dev_add was: no caller measures it
            restoredDataVqs = -1;
        }
    }

    /** This kernel's facts of the driver. */
    Mlx5VnetFacts facts() {
        return facts;
    }

    /** The latency model: the FW commands each op issues and what they cost (a collaborator, not the owner). */
    private DriverModel model() {
        return dev.model();
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

    /**
     * mlx5_vdpa_dev_add: a provisioned MTU is written to the function's vport (config_func_mtu), the config MTU is
     * the vport's (query_mtu), the status its link (get_link_state), the MAC the provisioned one or the function's
     * (6.1.192 mlx5_vnet.c l. 3124-3147; 6.12.118 l. 3910-3938, MTU and status only with F_MTU and F_STATUS); the
     * port notifier on 6.1 (l. 3181-3184); the FW resources (6.12+: every VQ object) charged to the latency model.
     */
    @Override
    public void devAdd(int dataVqs, boolean charged) {
        PortFunction function = dev.fakeMgmtDevice().function();
        if (dev.provisioning().mtu() != null) {
            function.setMtu(dev.provisioning().mtu());
        }
        long gate = configFieldFeatures(dev.deviceFeatures());
        if ((gate & 1L << vhost_h.VIRTIO_NET_F_MTU()) != 0) {
            dev.config().setMtu(function.mtu());
        }
        if ((gate & 1L << vhost_h.VIRTIO_NET_F_STATUS()) != 0) {
            dev.config().setLinkUp(function.linkUp());
        }
        byte[] mac = facts.devAddMac(dev.provisioning(), function.mac());
        if (mac != null) {
            dev.config().setMac(mac);
        }
        notifierRegistered = facts.linkNotifierAtDevAdd();
        if (charged) {
            dev.charge(DriverCall.DEV_ADD, () -> model().devAdd(dataVqs));
        } else if (dev.hasModel()) {
            model().devAdd(dataVqs);
        } else {
            restoredDataVqs = dataVqs; // the FW model sets the restored device up when first made (modelMade)
        }
    }

    /** mlx5_vdpa_dev_del: the FW resources destroyed. */
    @Override
    public void devDel() {
        dev.charge(DriverCall.DEV_DEL, model()::devDel);
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
        dev.charge(DriverCall.SET_VQ_NUM, () -> model().setVqNum(index, num));
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
        dev.charge(DriverCall.SET_VQ_READY, () -> model().setVqReady(index, ready));
        if (!isIndexValid(index) || dev.negotiatedFeatures() == 0) {
            return;
        }
        vq(index).setReady(ready);
    }

    /** mlx5_vdpa_set_vq_address: the CVQ's vring addresses, or a data VQ's (marked modified for its FW object). */
    @Override
    public void setVqAddress(int index, long desc, long driver, long device) {
        dev.charge(DriverCall.SET_VQ_ADDRESS, () -> model().setVqAddress(index));
        FakeVdpaDevice.DeviceVq vq = vq(index);
        if (vq == cvq.ring) {
            cvq.address[0] = desc; // cvq->desc_addr and friends: the vringh keeps its DRIVER_OK ring (setupVring)
            cvq.address[1] = driver;
            cvq.address[2] = device;
            return;
        }
        vq.descArea = desc;
        vq.driverArea = driver;
        vq.deviceArea = device;
    }

    /** mlx5_vdpa_set_vq_state: the CVQ's last_avail_idx, or a data VQ's indices (EINVAL while its object is RDY). */
    @Override
    public void setVqState(int index, long state) {
        dev.charge(DriverCall.SET_VQ_STATE, () -> model().setVqState(index, state));
        vq(index).state = state;
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
        dev.charge(DriverCall.GET_VQ_STATE, () -> model().getVqState(index));
        FakeVdpaDevice.DeviceVq vq = vq(index);
        return vq == cvq.ring ? vq.state : model().reportedVqState(index, vq.state);
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

    /** mlx5_vdpa_set_driver_features: actual_features, and (6.1) the active pairs; refusals from the model. */
    @Override
    public void setDriverFeatures(long stored) {
        dev.charge(DriverCall.SET_DRIVER_FEATURES, () -> model().setDriverFeatures(stored));
    }

    /** mlx5_vdpa_reset / mlx5_vdpa_compat_reset: the FW work, then the CVQ's part ({@link Mlx5ControlVq#reset}). */
    @Override
    public void reset(boolean cleanMap) {
        dev.charge(DriverCall.RESET, () -> model().reset(cleanMap));
        cvq.reset();
        driverSuspended = false;
        if (!facts.linkNotifierAtDevAdd()) {
            notifierRegistered = false; // compat_reset: unregister_link_notifier (6.12.118 l. 3279)
        }
        if (cleanMap) {
            // mlx5_vdpa_clean_mrs prunes cvq->iotlb, then the DMA MR (umem_uid_0) makes it the identity again
            // (6.12.118 core/mr.c l. 762-773, 863-873; 6.1.192 mlx5_vnet.c l. 2588 mlx5_vdpa_destroy_mr, core/mr.c l. 497-503)
            cvq.iotlb = null;
        }
    }

    /**
     * mlx5_vdpa_set_status: with CTRL_VQ negotiated, setup_cvq_vring fails for a ring size vringh refuses and
     * err_setup destroys the MRs and adds FAILED to the old status, nothing set up (6.1.192 mlx5_vnet.c
     * l. 2509-2527, 2540-2545, 2561-2563; 6.12.118 l. 3167-3185, 3198-3203, 3234-3236); a DRIVER_OK the FW
     * fails (the latency model's answer) also takes err_setup. After DRIVER_OK, register_link_notifier (6.12+).
     */
    @Override
    public int setStatus(int oldStatus, int newStatus) {
        if (driverOkSetupFails(oldStatus, newStatus)) {
            dev.charge(DriverCall.SET_STATUS, () -> model().driverOkSetupFailed(oldStatus));
            LOG.info("{}: DRIVER_OK refused by the driver's set-up ({}): status marked FAILED", dev.name(), DRIVER);
            dev.clearMaps();
            cvq.iotlb = null;
            return oldStatus | FAILED;
        }
        int now;
        try {
            dev.charge(DriverCall.SET_STATUS, () -> model().setStatus(oldStatus, newStatus));
            now = model().statusAfterSetStatus(newStatus);
        } catch (KernelError e) {
            LOG.info("{}: set_status {} failed ({}), status marked FAILED", dev.name(), newStatus, e.getMessage());
            now = oldStatus | FAILED;
        }
        if ((now & FAILED) != 0 && (newStatus & FAILED) == 0 && (oldStatus & FAILED) == 0) {
            dev.clearMaps(); // err_setup: mlx5_vdpa_clean_mrs, which prunes the CVQ's IOTLB too
            cvq.iotlb = null;
            if (!facts.linkNotifierAtDevAdd()) {
                notifierRegistered = false; // err_setup: unregister_link_notifier (6.12.118 l. 3233)
            }
        }
        statusChanged(oldStatus, now);
        return now;
    }

    private boolean driverOkSetupFails(int oldStatus, int newStatus) {
        return (oldStatus & DRIVER_OK) == 0 && (newStatus & DRIVER_OK) != 0
                && negotiated(vhost_h.VIRTIO_NET_F_CTRL_VQ()) && !cvq.ringSizeValid();
    }

    private void statusChanged(int oldStatus, int newStatus) {
        boolean driverOkNow = (oldStatus & DRIVER_OK) == 0 && (newStatus & DRIVER_OK) != 0
                && (newStatus & FAILED) == 0;
        if (driverOkNow && negotiated(vhost_h.VIRTIO_NET_F_CTRL_VQ())) {
            cvq.setupVring();
        }
        if (driverOkNow && facts.configInterruptOnDriverOk() && negotiated(vhost_h.VIRTIO_NET_F_STATUS())) {
            notifierRegistered = true; // register_link_notifier → queue_link_work
            updateCarrier();
        }
    }

    /**
     * mlx5_vdpa_suspend: suspend_vqs, then mlx5_vdpa_cvq_suspend and mvdev->suspended = true whatever suspend_vqs
     * answered (6.12.118 mlx5_vnet.c l. 3605-3620: a data VQ still INIT makes modify_virtqueues EINVAL, l. 1579-1588,
     * yet the CVQ is stopped); 6.1's returns 0 always (6.1.192 l. 2820-2841). The CVQ stays not ready, through
     * resume, until SET_VRING_ENABLE.
     */
    @Override
    public void suspend() {
        try {
            dev.charge(DriverCall.SUSPEND, model()::suspend);
        } finally {
            if (negotiated(vhost_h.VIRTIO_NET_F_CTRL_VQ())) {
                vq(ctrlVqIndex()).ready = false;
            }
            driverSuspended = true;
            if (facts.linkNotifierAtDevAdd()) {
                notifierRegistered = false; // 6.1: mlx5_notifier_unregister for good (6.1.192 l. 2830-2832)
            }
        }
    }

    /**
     * mlx5_vdpa_resume (6.12+): mvdev->suspended = false, resume_vqs, then queue_link_work → update_carrier whatever
     * resume_vqs answered (6.12.118 mlx5_vnet.c l. 3622-3638): LINK_UP into the config status as the function's
     * link is, even without F_STATUS (l. 2814-2832), and config_cb.
     */
    @Override
    public void resume() {
        driverSuspended = false;
        try {
            dev.charge(DriverCall.RESUME, model()::resume);
        } finally {
            if (facts.configInterruptOnResume()) {
                updateCarrier();
            }
        }
    }

    /**
     * mlx5_vnet.c update_carrier: VIRTIO_NET_S_LINK_UP as the function's vport is (get_link_state), then config_cb;
     * 6.1's only while nb_registered (6.1.192 l. 2993-3011; 6.12.118 l. 2814-2832).
     */
    private void updateCarrier() {
        dev.config().setLinkUp(dev.fakeMgmtDevice().function().linkUp());
        if (!facts.linkNotifierAtDevAdd() || notifierRegistered) {
            dev.raiseConfigInterrupt();
        }
    }

    /**
     * mlx5_vnet.c event_handler: a port change (MLX5_PORT_CHANGE_SUBTYPE_DOWN/ACTIVE) queues update_carrier while
     * the notifier is registered; 6.12+ ignore it while mvdev->suspended (6.12.118 l. 2848-2872; 6.1.192
     * l. 3013-3039, whose notifier a SUSPEND removed for good).
     */
    @Override
    public void portChanged() {
        if (notifierRegistered && !driverSuspended) {
            updateCarrier();
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

    /**
     * mlx5_set_group_asid: group2asid (the generic device stores it). The CVQ keeps reading through its own copy of
     * the IOTLB: 6.12+ copy the new ASID's only when that ASID has an MR (mlx5_vdpa_update_cvq_iotlb, 6.12.118
     * mlx5_vnet.c l. 3641-3654, core/mr.c l. 844-861); 6.1 never here, only at the next set_map of that ASID
     * (6.1.192 l. 2843-2850; core/mr.c _mlx5_vdpa_create_cvq_mr l. 542-549).
     */
    @Override
    public void setGroupAsid(int group, int asid) {
        dev.charge(DriverCall.SET_GROUP_ASID, () -> model().setGroupAsid(group, asid));
        List<MapEntry> map = dev.mapOf(asid);
        // mres.mr[asid]: a non-empty map, or ASID 0's DMA MR while it has none
        boolean hasMr = map == null ? asid == 0 : !map.isEmpty();
        if (facts.cvqIotlbAtGroupAsid() && group == dev.spec().groups().cvq() && hasMr) {
            cvq.iotlb = map;
        }
    }

    /** mlx5_vdpa_set_map → set_map_data: the ASID's MR built or changed by the latency model. */
    @Override
    public void setMap(int asid, List<MapEntry> table) {
        dev.charge(DriverCall.SET_MAP, () -> model().setMap(asid, table));
        dev.storeMap(asid, table);
        if (dev.groupAsid(dev.spec().groups().cvq()) == asid) {
            cvq.iotlb = table; // set_map_data → mlx5_vdpa_update_cvq_iotlb (6.12.118 l. 3375), the CVQ group's ASID only
        }
    }

    /** mlx5_vdpa_reset_map → mlx5_vdpa_reset_mr: the ASID back to the DMA MR (or none). */
    @Override
    public void resetMap(int asid) {
        dev.charge(DriverCall.RESET_MAP, () -> model().resetMap(asid));
        dev.removeMap(asid);
        if (dev.groupAsid(dev.spec().groups().cvq()) == asid) {
            cvq.iotlb = null; // mlx5_vdpa_reset_mr → the identity (core/mr.c 6.12.118 l. 876-891)
        }
    }

    /** mlx5_vdpa_ops has no .dma_map (the mlx5 profile maps with set_map; vhost-vdpa never calls it). */
    @Override
    public void dmaMap(int asid, MapEntry entry) {
        throw new IllegalStateException("mlx5_vdpa_ops has no .dma_map");
    }

    /** mlx5_vdpa_ops has no .dma_unmap. */
    @Override
    public void dmaUnmap(int asid, MapEntry entry) {
        throw new IllegalStateException("mlx5_vdpa_ops has no .dma_unmap");
    }

    /** mlx5_vdpa_get_config: a copy of ndev->config when offset + len fits. */
    @Override
    public byte[] getConfig(int offset, int length) {
        return Arrays.copyOfRange(dev.config().read(), offset, offset + length);
    }

    /** mlx5_vdpa_set_config: "not supported", the write is dropped. */
    @Override
    public void setConfig(int offset, byte[] data) {
    }

    /** mlx5_cvq_kick_handler: the driver's own CVQ (struct mlx5_control_vq), with CTRL_VQ negotiated and cvq->ready. */
    @Override
    public FakeVdpaDevice.DeviceVq cvqToServe() {
        FakeVdpaDevice.DeviceVq ring = cvq.ring;
        return dev.spec().queues().lastIsCvq() && ring.ready && ring.num != 0
                && negotiated(vhost_h.VIRTIO_NET_F_CTRL_VQ()) ? ring : null;
    }

    /** mlx5_cvq_kick_handler reads through cvq->iotlb, the driver's copy of an ASID's IOTLB (see {@link #setGroupAsid}). */
    @Override
    public List<MapEntry> cvqMap() {
        return cvq.iotlb;
    }

    /** mlx5_cvq_kick_handler: received_desc once the header was read. */
    @Override
    public void cvqCommandRead() {
        cvq.receivedDesc++;
    }

    /**
     * mlx5_cvq_kick_handler: completed_desc, then a notification only when vringh_need_notify_iotlb says so:
     * without EVENT_IDX (mlx5 offers none) that is "no VRING_AVAIL_F_NO_INTERRUPT" (vringh.c
     * __vringh_need_notify, 6.1.192 l. 497-520).
     */
    @Override
    public boolean cvqCommandDone(int availFlags) {
        cvq.completedDesc++;
        return (availFlags & NO_INTERRUPT) == 0;
    }

    /**
     * mlx5_vnet.c handle_ctrl_mac: the same MAC is OK, an all-zero one VIRTIO_NET_ERR and the MAC kept
     * (6.1.192 l. 1654-1660; 6.12.118 l. 2144-2150).
     */
    @Override
    public byte cvqMacAddrSet(byte[] mac) {
        if (!Arrays.equals(mac, dev.configMac()) && Arrays.equals(mac, new byte[6])) {
            return ControlQueueDatapath.ERR;
        }
        dev.setConfigMacFromDriver(mac);
        return ControlQueueDatapath.OK;
    }

    /** mlx5_vnet.c handle_ctrl_mq → change_num_qps: with MQ negotiated and 1 ≤ pairs ≤ the device's pairs. */
    @Override
    public byte cvqVqPairsSet(int pairs) {
        return ControlQueueDatapath.vqPairsSet(dev, pairs);
    }

    /**
     * mlx5_vnet.c handle_ctrl_vlan (with CTRL_VLAN negotiated): VLAN_ADD's mac_vlan_add refuses a rule that
     * exists (-EEXIST → VIRTIO_NET_ERR); VLAN_DEL is OK whether or not the rule existed.
     */
    @Override
    public byte cvqVlan(boolean add, int vid) {
        if ((dev.negotiatedFeatures() & F_CTRL_VLAN) == 0) {
            return ControlQueueDatapath.ERR;
        }
        String rule = HexFormat.of().formatHex(dev.configMac()) + "/" + vid;
        if (add) {
            return cvq.vlanRules.add(rule) ? ControlQueueDatapath.OK : ControlQueueDatapath.ERR;
        }
        cvq.vlanRules.remove(rule);
        return ControlQueueDatapath.OK;
    }

    /**
     * mlx5_vdpa_get_vendor_vq_stats: EINVAL with the extack "mlx5_vdpa: virtqueue index is not valid" outside
     * is_index_valid, the CVQ's software counters (received_desc, completed_desc) at ctrl_vq_idx, otherwise the FW
     * counters of a data VQ, which counter_set_query reads only from a RDY object (EAGAIN, with the extack
     * "mlx5_vdpa: failed to query hardware"): 6.1.192 mlx5_vnet.c l. 2754-2781, 6.12.118 l. 3539-3567. The fake's
     * hardware moves no frames, so a data VQ's FW counters read 0.
     */
    @Override
    public List<Map.Entry<String, Long>> vendorVqStats(DeviceProfile.VendorStats vs, int queueIndex) {
        if (!dev.validVqIndex(queueIndex)) {
            throw new KernelError(DeviceProfile.errno(vs.invalidQueueErrno()), EXTACK_PREFIX + "virtqueue index is not valid",
                    dev.name() + ": virtqueue index " + queueIndex + " is not valid");
        }
        List<String> names = vs.everyQueue();
        if (queueIndex == ctrlVqIndex()) {
            // zeroed by every reset, so by every open and close of the node
            return List.of(Map.entry(names.get(0), cvq.receivedDesc), Map.entry(names.get(1), cvq.completedDesc));
        }
        if (!dev.model().vqRunning(queueIndex)) {
            throw new KernelError(Errno.EAGAIN, EXTACK_PREFIX + "failed to query hardware",
                    dev.name() + ": vq " + queueIndex + " is not RDY in the FW");
        }
        List<Map.Entry<String, Long>> out = new ArrayList<>();
        names.forEach(n -> out.add(Map.entry(n, 0L)));
        return out;
    }
}
