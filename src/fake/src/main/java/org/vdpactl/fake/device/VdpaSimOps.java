package org.vdpactl.fake.device;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vdpactl.fake.errno.KernelError;
import org.vdpactl.fake.fault.DriverCall;
import org.vdpactl.fake.model.DriverModel;
import org.vdpactl.fake.model.MapEntry;
import org.vdpactl.fake.model.OpCost;
import org.vdpactl.ffi.gen.vhost.vhost_h;

/**
 * vdpa_sim's {@code vdpasim_config_ops} (drivers/vdpa/vdpa_sim/vdpa_sim.c, with vdpa_sim_net.c and
 * vdpa_sim_blk.c for the device kinds): every queue is an indexed queue, the CVQ of vdpa_sim_net is the last
 * one, the ops store what they are given, and a kick while suspended is kept for resume. vdpa_sim has the same
 * behaviour on every kernel of the matrix, so it has no facts file. Its costs are the device's latency model
 * ({@link DriverModel#FREE} unless a test or bench gives one).
 */
final class VdpaSimOps implements VdpaConfigOps {
    /** The driver's name, as {@link #driver()} reports it. */
    static final String DRIVER = "vdpa_sim";
    /**
     * The optional members vdpasim_batch_config_ops sets (vdpa_sim.c; batch_mapping's default: set_map; the
     * dma_map variant vdpasim_config_ops is not modelled), with what vdpasim_get_backend_features returns and
     * vdpasim's pass-through map before any set_map (vdpasim_do_reset). No get_vq_notification: no doorbell.
     */
    static final DeviceProfile.Ops CONFIG_OPS = new DeviceProfile.Ops(
            Set.of("suspend", "resume", "reset_map", "set_map", "bind_mm", "get_backend_features"),
            List.of("VHOST_BACKEND_F_ENABLE_AFTER_DRIVER_OK"), "identity");
    private static final Logger LOG = LoggerFactory.getLogger(VdpaSimOps.class);
    private static final int FAILED = vhost_h.VIRTIO_CONFIG_S_FAILED();
    private final FakeVdpaDevice dev;

    VdpaSimOps(FakeVdpaDevice dev) {
        this.dev = dev;
    }

    private DriverModel model() {
        return dev.model();
    }

    @Override
    public String driver() {
        return DRIVER;
    }

    /** vdpasim_set_vq_address and every per-queue op: {@code &vdpasim->vqs[idx]}. */
    @Override
    public FakeVdpaDevice.DeviceVq vq(int index) {
        return dev.indexedVq(index);
    }

    /** vdpasim_net_get_config / vdpasim_net_setup_config: mtu, status and max_virtqueue_pairs always filled. */
    @Override
    public long configFieldFeatures(long deviceFeatures) {
        return ConfigSpace.ALL_FIELDS;
    }

    /** vdpasim_net_dev_add / vdpasim_blk_dev_add: vdpasim_create, charged to the device's model. */
    @Override
    public void devAdd(int dataVqs, boolean charged) {
        if (charged) {
            dev.charge(DriverCall.DEV_ADD, () -> model().devAdd(dataVqs));
        } else {
            model().devAdd(dataVqs);
        }
    }

    /** vdpasim_net_dev_del: _vdpa_unregister_device. */
    @Override
    public void devDel() {
        dev.charge(DriverCall.DEV_DEL, model()::devDel);
    }

    /** vdpasim_handle_cvq (vdpa_sim_net.c): the CVQ is the last queue (VDPASIM_NET_VQ_NUM - 1 = 2 with one pair). */
    @Override
    public int ctrlVqIndex() {
        return dev.nvqs() - 1;
    }

    /** vdpasim_set_vq_num, vdpasim_set_vq_ready, ...: {@code &vdpasim->vqs[idx]} for any index below nvqs. */
    @Override
    public boolean isIndexValid(int index) {
        return true;
    }

    /** vdpasim_get_vq_ready. */
    @Override
    public boolean getVqReady(int index) {
        return vq(index).ready;
    }

    /** vdpasim_set_vq_num. */
    @Override
    public void setVqNum(int index, int num) {
        dev.charge(DriverCall.SET_VQ_NUM, () -> model().setVqNum(index, num));
        vq(index).num = num;
    }

    /** vdpasim_set_vq_address. */
    @Override
    public void setVqAddress(int index, long desc, long driver, long device) {
        dev.charge(DriverCall.SET_VQ_ADDRESS, () -> model().setVqAddress(index));
        FakeVdpaDevice.DeviceVq vq = vq(index);
        vq.descArea = desc;
        vq.driverArea = driver;
        vq.deviceArea = device;
    }

    /** vdpasim_set_vq_ready → vdpasim_queue_ready: enabling re-initialises the ring at the avail index. */
    @Override
    public void setVqReady(int index, boolean ready) {
        dev.charge(DriverCall.SET_VQ_READY, () -> model().setVqReady(index, ready));
        vq(index).setReady(ready);
    }

    /** vdpasim_set_vq_state: the avail index is stored. */
    @Override
    public void setVqState(int index, long state) {
        dev.charge(DriverCall.SET_VQ_STATE, () -> model().setVqState(index, state));
        vq(index).state = state;
    }

    /** vdpasim_set_vq_cb. */
    @Override
    public void setVqCb(int index, Runnable interrupt) {
        vq(index).callback = interrupt;
    }

    /** vdpasim_get_vq_state: the last SET value (0 after reset), as the device's cost model passes it through. */
    @Override
    public long getVqState(int index) {
        dev.charge(DriverCall.GET_VQ_STATE, () -> model().getVqState(index));
        return model().reportedVqState(index, vq(index).state);
    }

    /** vdpasim_config_ops has no get_vq_notification; a profile that offers the op maps every data queue. */
    @Override
    public boolean getVqNotification(int index) {
        return !(dev.spec().queues().lastIsCvq() && index == dev.nvqs() - 1);
    }

    /** vdpasim_kick_vq: the work is scheduled; while suspended (vdpasim->running false) it is kept for resume. */
    @Override
    public Kick kickVq(int index, boolean suspended) {
        return suspended ? Kick.DEFER : Kick.RUN;
    }

    /** vdpasim_set_driver_features. */
    @Override
    public void setDriverFeatures(long stored) {
        dev.charge(DriverCall.SET_DRIVER_FEATURES, () -> model().setDriverFeatures(stored));
    }

    /** vdpasim_compat_reset → vdpasim_do_reset: nothing beyond the queue state the generic device clears. */
    @Override
    public void reset(boolean cleanMap) {
        dev.charge(DriverCall.RESET, () -> model().reset(cleanMap));
    }

    /**
     * vdpasim_set_status: the status is stored; it cannot fail. A latency model that refuses the op (a test's
     * failing hardware) marks the device FAILED, as a driver whose set-up fails does.
     */
    @Override
    public int setStatus(int oldStatus, int newStatus) {
        try {
            dev.charge(DriverCall.SET_STATUS, () -> model().setStatus(oldStatus, newStatus));
            return model().statusAfterSetStatus(newStatus);
        } catch (KernelError e) {
            LOG.info("{}: set_status {} failed ({}), status marked FAILED", dev.name(), newStatus, e.getMessage());
            if ((newStatus & FAILED) == 0 && (oldStatus & FAILED) == 0) {
                dev.clearMaps();
            }
            return oldStatus | FAILED;
        }
    }

    /** vdpasim_suspend: running = false. */
    @Override
    public void suspend() {
        dev.charge(DriverCall.SUSPEND, model()::suspend);
    }

    /** vdpasim_resume: running = true; the pending kick is replayed by the generic device. */
    @Override
    public void resume() {
        dev.charge(DriverCall.RESUME, model()::resume);
    }

    /** vdpasim_set_group_asid. */
    @Override
    public void setGroupAsid(int group, int asid) {
        dev.charge(DriverCall.SET_GROUP_ASID, () -> model().setGroupAsid(group, asid));
    }

    /** vdpasim_set_map: the ASID's IOTLB becomes the table. */
    @Override
    public void setMap(int asid, List<MapEntry> table) {
        dev.charge(DriverCall.SET_MAP, () -> model().setMap(asid, table));
        dev.storeMap(asid, table);
    }

    /** vdpasim_reset_map: the ASID returns to the identity (or the profile's initial) translation. */
    @Override
    public void resetMap(int asid) {
        dev.charge(DriverCall.RESET_MAP, () -> model().resetMap(asid));
        dev.removeMap(asid);
    }

    /** vdpasim_dma_map: one entry added to the ASID's IOTLB. */
    @Override
    public void dmaMap(int asid, MapEntry entry) {
        dev.charge(DriverCall.DMA_MAP, () -> OpCost.FREE);
        List<MapEntry> m = new ArrayList<>(mapOrEmpty(asid));
        m.add(entry);
        dev.storeMap(asid, List.copyOf(m));
    }

    /** vdpasim_dma_unmap: the entry removed from the ASID's IOTLB. */
    @Override
    public void dmaUnmap(int asid, MapEntry entry) {
        dev.charge(DriverCall.DMA_UNMAP, () -> OpCost.FREE);
        List<MapEntry> m = new ArrayList<>(mapOrEmpty(asid));
        m.remove(entry);
        dev.storeMap(asid, List.copyOf(m));
    }

    private List<MapEntry> mapOrEmpty(int asid) {
        List<MapEntry> m = dev.mapOf(asid);
        return m == null ? List.of() : m;
    }

    /** vdpasim_get_config: the device kind's get_config into the buffer, then the requested bytes. */
    @Override
    public byte[] getConfig(int offset, int length) {
        return Arrays.copyOfRange(dev.config().read(), offset, offset + length);
    }

    /** vdpasim_set_config: stored where the device kind keeps writes (vdpa_sim_net), else dropped. */
    @Override
    public void setConfig(int offset, byte[] data) {
        dev.config().write(offset, data);
    }

    /** vdpasim_net_dev_add registers no port notifier: vdpa_sim has no PCI function, so no port event. */
    @Override
    public void portChanged() {
    }

    /** vdpasim_net_set_attr as the fake has it: the config-space MAC changes, the features do not. */
    @Override
    public long setAttrMac(byte[] mac, int status, long deviceFeatures) {
        return deviceFeatures;
    }

    /** vdpasim_handle_cvq: the last queue when CTRL_VQ was negotiated and the queue is ready with a ring. */
    @Override
    public FakeVdpaDevice.DeviceVq cvqToServe() {
        FakeVdpaDevice.DeviceVq cvq = vq(ctrlVqIndex());
        boolean ctrlVq = (dev.negotiatedFeatures() & 1L << vhost_h.VIRTIO_NET_F_CTRL_VQ()) != 0;
        return dev.spec().queues().lastIsCvq() && cvq.ready && cvq.num != 0 && ctrlVq ? cvq : null;
    }

    /** vdpasim_handle_cvq reads through the IOTLB of the CVQ's ASID (vdpasim->iommu[vq->asid]). */
    @Override
    public List<MapEntry> cvqMap() {
        int index = ctrlVqIndex();
        return dev.mapOf(dev.groupAsid(dev.vqGroup(index)));
    }

    /** vdpasim_handle_cvq counts into the net statistics only (vdpasim_net_get_stats), which the datapath keeps. */
    @Override
    public void cvqCommandRead() {
    }

    /** vdpasim_handle_cvq: vq->cb is called for every completion, whatever the avail flags. */
    @Override
    public boolean cvqCommandDone(int availFlags) {
        return true;
    }

    /** vdpasim_handle_ctrl_mac: MAC_ADDR_SET copies the MAC into the config space. */
    @Override
    public byte cvqMacAddrSet(byte[] mac) {
        dev.setConfigMacFromDriver(mac);
        return ControlQueueDatapath.OK;
    }

    /**
     * vdpasim_handle_cvq answers VQ_PAIRS_SET only when MQ was negotiated (vdpa_sim_net offers no MQ, so in
     * practice VIRTIO_NET_ERR): 1 ≤ pairs ≤ the device's pairs, charged to the model.
     */
    @Override
    public byte cvqVqPairsSet(int pairs) {
        return ControlQueueDatapath.vqPairsSet(dev, pairs);
    }

    /** vdpasim_handle_cvq handles the MAC class only: a VLAN command is VIRTIO_NET_ERR. */
    @Override
    public byte cvqVlan(boolean add, int vid) {
        return ControlQueueDatapath.ERR;
    }

    /** vdpasim_net_get_vendor_vq_stats / the profile's table: answered by the generic device. */
    @Override
    public List<Map.Entry<String, Long>> vendorVqStats(DeviceProfile.VendorStats stats, int index) {
        return null;
    }
}
