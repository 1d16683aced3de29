package org.vdpactl.fake.device;

import java.util.List;
import java.util.Map;

/**
 * vdpa_sim's {@code vdpasim_config_ops} (drivers/vdpa/vdpa_sim/vdpa_sim.c, with vdpa_sim_net.c and
 * vdpa_sim_blk.c for the device kinds): every queue is an indexed queue, the CVQ of vdpa_sim_net is the last
 * one, the ops store what they are given, and a kick while suspended is kept for resume. vdpa_sim has the same
 * behaviour on every kernel of the matrix, so it has no facts file.
 */
final class VdpaSimOps implements VdpaConfigOps {
    /** The driver's name, as {@link #driver()} reports it. */
    static final String DRIVER = "vdpa_sim";
    private final FakeVdpaDevice dev;

    VdpaSimOps(FakeVdpaDevice dev) {
        this.dev = dev;
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
        vq(index).num = num;
    }

    /** vdpasim_set_vq_ready → vdpasim_queue_ready: enabling re-initialises the ring at the avail index. */
    @Override
    public void setVqReady(int index, boolean ready) {
        vq(index).setReady(ready);
    }

    /** vdpasim_set_vq_cb. */
    @Override
    public void setVqCb(int index, Runnable interrupt) {
        vq(index).callback = interrupt;
    }

    /** vdpasim_get_vq_state: the last SET value (0 after reset), as the device's cost model passes it through. */
    @Override
    public long getVqState(int index) {
        return dev.model().reportedVqState(index, vq(index).state);
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

    /** vdpasim_do_reset: nothing beyond the queue state the generic device clears. */
    @Override
    public void reset() {
    }

    /** vdpasim_set_status: no set-up that can fail. */
    @Override
    public boolean driverOkSetupFails(int oldStatus, int newStatus) {
        return false;
    }

    /** vdpasim_set_status: nothing beyond storing the status. */
    @Override
    public void statusChanged(int oldStatus, int newStatus) {
    }

    /** vdpasim_suspend: running = false. */
    @Override
    public void suspend() {
    }

    /** vdpasim_resume: running = true; the pending kick is replayed by the generic device. */
    @Override
    public void resume() {
    }

    /** vdpasim_net's dev_set_attr as the fake has it: the config-space MAC changes, the features do not. */
    @Override
    public long setAttrMac(byte[] mac, int status, long deviceFeatures) {
        return deviceFeatures;
    }

    /** vdpasim_handle_cvq works on the indexed last queue: no control queue of the driver's own. */
    @Override
    public Mlx5ControlVq ownControlVq() {
        return null;
    }

    /** vdpasim_net_get_vendor_vq_stats / the profile's table: answered by the generic device. */
    @Override
    public List<Map.Entry<String, Long>> vendorVqStats(DeviceProfile.VendorStats stats, int index) {
        return null;
    }
}
