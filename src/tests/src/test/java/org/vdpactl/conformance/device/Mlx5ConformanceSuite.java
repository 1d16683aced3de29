package org.vdpactl.conformance.device;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.vdpactl.fake.inside.FakeInside;
import org.vdpactl.fake.mlx5.Mlx5Capabilities;
import org.vdpactl.fake.vfs.EventFdFile;
import org.vdpactl.fake.FakeKernel;
import org.vdpactl.fake.FakeProcess;
import org.vdpactl.fake.device.FakeVdpaDevice;
import org.vdpactl.fake.fault.FaultRule;
import org.vdpactl.abi.KernelProfile;
import org.vdpactl.fake.mlx5.FwFault;
import org.vdpactl.fake.mlx5.FwOpcode;
import org.vdpactl.fake.mlx5.Mlx5Device;
import org.vdpactl.fake.mlx5.VqState;
import org.vdpactl.fake.netlink.FakeNetlink;
import org.vdpactl.fake.state.Inventory;
import org.vdpactl.fake.vhost.Vhost;
import org.vdpactl.ffi.gen.libc.libc_h;
import org.vdpactl.ffi.gen.vhost.vhost_h;
import org.vdpactl.ffi.gen.vhost.vring_avail;
import org.vdpactl.ffi.gen.vhost.vring_desc;
import org.vdpactl.ffi.gen.vhost.vring_used;
import org.vdpactl.mgmt.DeviceSpec;
import org.vdpactl.mgmt.VdpaNetlink;
import org.vdpactl.mgmt.VendorStats;
import org.vdpactl.mgmt.MacAddress;
import org.vdpactl.netlink.NetlinkException;
import org.vdpactl.sys.Errno;
import org.vdpactl.vhost.VhostIoctl;

/**
 * The fake's mlx5 device as mlx5_vdpa is on one kernel version (docs/spec/mlx5-kernels.md; issue 28).
 * Fake only: the lane has no ConnectX. Every expected value is the driver's, written here per version
 * from the kernel source, not read from the fake's data. The setup: mgmtdev pci/0000:08:00.2 with
 * mlx5-0 (16 pairs, no MAC) → /dev/vhost-vdpa-0, and pci/0000:08:00.3 without a device for dev add.
 */
public abstract class Mlx5ConformanceSuite {
    static final long PAGE = 4096;
    static final long RING_IOVA = 0x100000;
    static final int QSIZE = 64;
    static final long VERSION_1 = 1L << 32;
    static final long ACCESS_PLATFORM = 1L << 33;
    static final long F_MAC = 1L << vhost_h.VIRTIO_NET_F_MAC();
    static final long F_MTU = 1L << vhost_h.VIRTIO_NET_F_MTU();
    static final long F_STATUS = 1L << vhost_h.VIRTIO_NET_F_STATUS();
    static final long F_CTRL_VQ = 1L << vhost_h.VIRTIO_NET_F_CTRL_VQ();
    static final long F_CTRL_VLAN = 1L << vhost_h.VIRTIO_NET_F_CTRL_VLAN();
    static final long F_MQ = 1L << vhost_h.VIRTIO_NET_F_MQ();
    static final long F_MRG_RXBUF = 1L << vhost_h.VIRTIO_NET_F_MRG_RXBUF();
    static final long F_GUEST_TSO4 = 1L << vhost_h.VIRTIO_NET_F_GUEST_TSO4();
    static final long F_GUEST_TSO6 = 1L << vhost_h.VIRTIO_NET_F_GUEST_TSO6();
    /** The features the cases negotiate: no MQ, a CVQ that takes VLAN and MAC commands, link status. */
    static final long FEATURES = VERSION_1 | ACCESS_PLATFORM | F_CTRL_VQ | F_CTRL_VLAN | F_STATUS;
    static final String NODE = "/dev/vhost-vdpa-0";
    static final String SPARE_MGMTDEV = "pci/0000:08:00.3";
    static final int CTRL_MAC = 1;
    static final int CTRL_MAC_ADDR_SET = 1;
    static final int CTRL_VLAN = 2;
    static final int CTRL_MQ = 4;

    private FakeKernel kernel;
    private FakeProcess p;
    private MemorySegment ring;
    private int kick;
    private int posted;

    /** The kernel version whose mlx5_vdpa the fake must show. */
    protected abstract KernelProfile kernel();

    boolean is61() {
        return "6.1".equals(kernel().version());
    }

    @BeforeEach
    void start() {
        Inventory inventory = new Inventory(
                List.of(new Inventory.Mgmt("mlx5", "pci", "0000:08:00.2", null),
                        new Inventory.Mgmt("mlx5", "pci", "0000:08:00.3", null)),
                List.of(new Inventory.Device("mlx5-0", "pci/0000:08:00.2", null, null, 16, null, null, null)));
        kernel = FakeInside.inventory(FakeKernel.builder().kernel(kernel()), inventory).build();
        FakeNetlink.install(kernel);
        p = kernel.newProcess();
    }

    @AfterEach
    void stop() {
        p.close();
        kernel.close();
    }

    FakeVdpaDevice device(String name) {
        return FakeInside.device(kernel, name).orElseThrow();
    }

    /** Owner, ASID backend features, ACK|DRIVER, the features, FEATURES_OK. */
    Vhost featuresOk(long features) {
        Vhost v = new Vhost(p, NODE);
        v.setOwner();
        v.setU64(VhostIoctl.SET_BACKEND_FEATURES, 0x0E);
        v.setStatus(3);
        v.setU64(VhostIoctl.SET_FEATURES, features);
        v.setStatus(0xB);
        return v;
    }

    /** A CVQ ring at VQ {@code cvq} in shared memory mapped at RING_IOVA of ASID 0, enabled; DRIVER_OK unless asked not to. */
    Vhost startCvq(long features, int cvq, boolean driverOk) {
        Vhost v = featuresOk(features);
        int memfd = p.memfdCreate("cvq", 0);
        p.ftruncate(memfd, 4 * PAGE);
        ring = p.mmap(4 * PAGE, libc_h.PROT_READ() | libc_h.PROT_WRITE(), libc_h.MAP_SHARED(), memfd, 0);
        p.close(memfd);
        v.iotlb(0, Vhost.UPDATE, RING_IOVA, 4 * PAGE, ring.address());
        kick = p.eventfd(0, 0);
        v.vringState(VhostIoctl.SET_VRING_NUM, cvq, QSIZE);
        v.vringAddr(cvq, RING_IOVA, RING_IOVA + PAGE, RING_IOVA + 2 * PAGE);
        v.vringFile(VhostIoctl.SET_VRING_KICK, cvq, kick);
        v.vringState(VhostIoctl.VDPA_SET_VRING_ENABLE, cvq, 1);
        if (driverOk) {
            v.setStatus(0xF);
        }
        return v;
    }

    /** Posts {class, cmd, data} with an ack buffer and kicks; returns the ack byte (0xFF = not processed). */
    int send(int cls, int cmd, int... values) {
        MemorySegment buf = ring.asSlice(3 * PAGE, PAGE);
        buf.set(ValueLayout.JAVA_BYTE, 0, (byte) cls);
        buf.set(ValueLayout.JAVA_BYTE, 1, (byte) cmd);
        for (int i = 0; i < values.length; i++) {
            buf.set(ValueLayout.JAVA_BYTE, 64 + i, (byte) values[i]);
        }
        buf.set(ValueLayout.JAVA_BYTE, 128, (byte) 0xFF);
        short next = (short) vhost_h.VRING_DESC_F_NEXT();
        desc(0, RING_IOVA + 3 * PAGE, 2, next, 1);
        desc(1, RING_IOVA + 3 * PAGE + 64, values.length, next, 2);
        desc(2, RING_IOVA + 3 * PAGE + 128, 1, (short) vhost_h.VRING_DESC_F_WRITE(), 0);
        MemorySegment avail = ring.asSlice(PAGE, PAGE);
        avail.set(ValueLayout.JAVA_SHORT, vring_avail.ring$offset() + 2L * (posted % QSIZE), (short) 0);
        posted++;
        vring_avail.idx(avail, (short) posted);
        kickAgain();
        return Byte.toUnsignedInt(buf.get(ValueLayout.JAVA_BYTE, 128));
    }

    void kickAgain() {
        p.write(kick, MemorySegment.ofArray(new long[] {1}));
    }

    private void desc(int i, long addr, int len, short flags, int next) {
        MemorySegment d = vring_desc.asSlice(ring, i);
        vring_desc.addr(d, addr);
        vring_desc.len(d, len);
        vring_desc.flags(d, flags);
        vring_desc.next(d, (short) next);
    }

    int usedIdx() {
        return Short.toUnsignedInt(vring_used.idx(ring.asSlice(2 * PAGE, PAGE)));
    }

    int group(Vhost v, int vq) {
        return v.vringState(VhostIoctl.VDPA_GET_VRING_GROUP, vq, 0);
    }

    static int errnoOf(Runnable call) {
        NetlinkException e = assertThrows(NetlinkException.class, call::run);
        return e.errno();
    }

    // ------------------------------------------------------------------ 1: the CVQ's index

    /** ctrl_vq_idx: VQ 2 unless VIRTIO_NET_F_MQ is negotiated (then 2 × pairs = 32), before SET_FEATURES too. */
    @Test
    void cvqIsVqTwoUntilMqIsNegotiated() {
        try (Vhost v = new Vhost(p, NODE)) {
            v.setOwner();
            assertEquals(33, v.getU32(VhostIoctl.VDPA_GET_VQS_COUNT));
            assertEquals(List.of(0, 0, 1, 0), List.of(group(v, 0), group(v, 1), group(v, 2), group(v, 32)),
                    "before SET_FEATURES the CVQ is VQ 2");
            v.setStatus(3);
            v.setU64(VhostIoctl.SET_FEATURES, FEATURES | F_MQ);
            assertEquals(List.of(0, 0, 1), List.of(group(v, 0), group(v, 2), group(v, 32)), "with MQ the CVQ is VQ 32");
            v.setStatus(0);
            v.setStatus(3);
            v.setU64(VhostIoctl.SET_FEATURES, FEATURES);
            assertEquals(List.of(1, 0), List.of(group(v, 2), group(v, 32)), "MQ gone after reset: VQ 2 again");
        }
    }

    /** QEMU's mq=off on a 16-pair device: the driver answers the CVQ at VQ 2. */
    @Test
    void withoutMqTheCvqAtVqTwoIsAnswered() {
        try (Vhost v = startCvq(FEATURES, 2, true)) {
            assertEquals(0, send(CTRL_MAC, CTRL_MAC_ADDR_SET, 2, 0, 0, 0, 0, 0x42));
            assertEquals(1, usedIdx());
        }
    }

    // ------------------------------------------------------------------ 2: the version's driver

    /** MLX5_VDPA_NUMVQ_GROUPS: 2 on 6.1 (no descriptor group), 3 later; MLX5_VDPA_NUM_AS 2. */
    @Test
    void groupsAndAddressSpaces() {
        try (Vhost v = new Vhost(p, NODE)) {
            v.setOwner();
            assertEquals(is61() ? 2 : 3, v.getU32(VhostIoctl.VDPA_GET_GROUP_NUM));
            assertEquals(2, v.getU32(VhostIoctl.VDPA_GET_AS_NUM));
            int groupTwo = Vhost.errno(() -> v.vringState(VhostIoctl.VDPA_SET_GROUP_ASID, 2, 1));
            assertEquals(is61() ? Errno.EINVAL : 0, groupTwo, "SET_GROUP_ASID of group 2");
        }
    }

    /**
     * 6.12+: get_vq_desc_group puts data descriptors in group 2 and the CVQ in 1, and DESC_ASID is offered,
     * unless the FW lacks desc_group_mkey_supported (mlx5v_probe drops the op); 6.1 has neither.
     */
    @Test
    void descriptorGroups() {
        long descAsid = 1L << vhost_h.VHOST_BACKEND_F_DESC_ASID();
        try (Vhost v = new Vhost(p, NODE)) {
            v.setOwner();
            assertEquals(is61() ? 0 : descAsid, v.getU64(VhostIoctl.GET_BACKEND_FEATURES) & descAsid);
            if (!is61()) {
                assertEquals(List.of(2, 2, 1), List.of(v.vringState(VhostIoctl.VDPA_GET_VRING_DESC_GROUP, 0, 0),
                        v.vringState(VhostIoctl.VDPA_GET_VRING_DESC_GROUP, 1, 0),
                        v.vringState(VhostIoctl.VDPA_GET_VRING_DESC_GROUP, 2, 0)));
            }
        }
        Mlx5Device model = (Mlx5Device) device("mlx5-0").model();
        var c = model.capabilities();
        model.setCapabilities(new Mlx5Capabilities(c.resumable(), false, c.umemUid0(), c.vqCounters()));
        try (Vhost v = new Vhost(p, NODE)) {
            v.setOwner();
            assertEquals(0, v.getU64(VhostIoctl.GET_BACKEND_FEATURES) & descAsid, "FW without desc_group_mkey_supported");
            assertEquals(is61() ? Errno.ENOTTY : Errno.EOPNOTSUPP,
                    Vhost.errno(() -> v.vringState(VhostIoctl.VDPA_GET_VRING_DESC_GROUP, 0, 0)), "6.1 has no such ioctl");
        }
    }

    /** get_supported_features: 6.1's driver offers no MAC, MRG_RXBUF or GUEST_TSO4/6. */
    @Test
    void offeredFeatures() {
        try (Vhost v = new Vhost(p, NODE)) {
            long f = v.getU64(VhostIoctl.GET_FEATURES);
            long newer = F_MRG_RXBUF | F_GUEST_TSO4 | F_GUEST_TSO6;
            assertEquals(is61() ? 0 : F_GUEST_TSO4 | F_GUEST_TSO6, f & newer,
                    "MRG_RXBUF is dropped when features are not provisioned (6.12+)");
            assertEquals(0, f & F_MAC, "no MAC, no F_MAC");
            assertEquals(F_MQ | F_CTRL_VQ | F_STATUS | F_MTU | VERSION_1 | ACCESS_PLATFORM,
                    f & (F_MQ | F_CTRL_VQ | F_STATUS | F_MTU | VERSION_1 | ACCESS_PLATFORM));
        }
    }

    /** config_attr_mask: VDPA_ATTR_DEV_FEATURES only from 6.12 (6.1: EOPNOTSUPP from vdpa.c). */
    @Test
    void devAddWithDeviceFeatures() {
        try (VdpaNetlink nl = VdpaNetlink.open(p)) {
            DeviceSpec spec = DeviceSpec.of("mlx5-x", SPARE_MGMTDEV)
                    .withMac(MacAddress.parse("02:00:00:00:00:07")).withDeviceFeatures(VERSION_1 | ACCESS_PLATFORM | F_MAC);
            if (is61()) {
                assertEquals(Errno.EOPNOTSUPP, errnoOf(() -> nl.addDevice(spec)));
            } else {
                nl.addDevice(spec);
                assertEquals(VERSION_1 | ACCESS_PLATFORM | F_MAC, device("mlx5-x").deviceFeatures());
            }
        }
    }

    // ------------------------------------------------------------------ 3: F_MAC and the MAC

    /** mlx5_vdpa_dev_add: F_MAC with a non-zero MAC only; 6.12+ refuse a provisioned F_MAC without a MAC. */
    @Test
    void macFeatureNeedsAMac() {
        try (VdpaNetlink nl = VdpaNetlink.open(p)) {
            if (!is61()) {
                assertEquals(Errno.EINVAL, errnoOf(() -> nl.addDevice(DeviceSpec.of("mlx5-x", SPARE_MGMTDEV)
                        .withDeviceFeatures(VERSION_1 | ACCESS_PLATFORM | F_MAC))));
            }
            nl.addDevice(DeviceSpec.of("mlx5-x", SPARE_MGMTDEV).withMac(MacAddress.parse("02:00:00:00:00:07")));
            assertTrue((device("mlx5-x").deviceFeatures() & F_MAC) != 0, "a MAC brings F_MAC");
        }
        assertEquals(0, device("mlx5-0").deviceFeatures() & F_MAC, "the vport MAC is zero: no F_MAC");
    }

    // ------------------------------------------------------------------ 4: the CVQ after suspend

    /** mlx5_vdpa_cvq_suspend: kicks are dropped; RESUME leaves the CVQ not ready until SET_VRING_ENABLE. */
    @Test
    void cvqStaysStoppedAfterResumeUntilEnabled() {
        try (Vhost v = startCvq(FEATURES, 2, true)) {
            v.ioctl(VhostIoctl.VDPA_SUSPEND, MemorySegment.NULL);
            assertEquals(0xFF, send(CTRL_MAC, CTRL_MAC_ADDR_SET, 2, 0, 0, 0, 0, 0x43));
            if (is61()) {
                assertEquals(Errno.EFAULT, Vhost.errno(() -> v.ioctl(VhostIoctl.VDPA_RESUME, MemorySegment.NULL)),
                        "6.1 has no RESUME: the vring ioctl path reads an index from NULL");
                return;
            }
            v.ioctl(VhostIoctl.VDPA_RESUME, MemorySegment.NULL);
            kickAgain();
            assertEquals(0, usedIdx(), "not ready after RESUME");
            v.vringState(VhostIoctl.VDPA_SET_VRING_ENABLE, 2, 1);
            kickAgain();
            assertEquals(1, usedIdx(), "processed once enabled again");
        }
    }

    /** mlx5v_probe drops .resume when the FW lacks freeze_to_rdy_supported: RESUME is then not offered. */
    @Test
    void resumeIsOfferedOnlyWhereTheDriverHasIt() {
        long resume = 1L << vhost_h.VHOST_BACKEND_F_RESUME();
        try (Vhost v = new Vhost(p, NODE)) {
            assertEquals(is61() ? 0 : resume, v.getU64(VhostIoctl.GET_BACKEND_FEATURES) & resume);
        }
        Mlx5Device model = (Mlx5Device) device("mlx5-0").model();
        model.setCapabilities(model.capabilities().withoutResume());
        try (Vhost v = new Vhost(p, NODE)) {
            assertEquals(0, v.getU64(VhostIoctl.GET_BACKEND_FEATURES) & resume, "FW without freeze_to_rdy");
        }
    }

    /**
     * mlx5_cvq_kick_handler looks at cvq->ready, not at the suspended flag: a CVQ enabled after a SUSPEND
     * (6.1 calls the driver's suspend before DRIVER_OK too) runs once DRIVER_OK is set.
     */
    @Test
    void aCvqEnabledAfterSuspendRuns() {
        try (Vhost v = startCvq(FEATURES, 2, false)) {
            v.ioctl(VhostIoctl.VDPA_SUSPEND, MemorySegment.NULL);
            v.vringState(VhostIoctl.VDPA_SET_VRING_ENABLE, 2, 1);
            v.setStatus(0xF);
            assertEquals(0, send(CTRL_MAC, CTRL_MAC_ADDR_SET, 2, 0, 0, 0, 0, 0x45));
        }
    }

    // ------------------------------------------------------------------ 5: a failed DRIVER_OK

    /** mlx5_vdpa_set_status err_setup: FAILED on the old status (no DRIVER_OK), the MRs destroyed. */
    @Test
    void failedDriverOkKeepsTheOldStatusAndDropsTheMaps() {
        try (Vhost v = startCvq(FEATURES, 2, false)) {
            Mlx5Device model = (Mlx5Device) device("mlx5-0").model();
            assertTrue(model.mapGeometry(0).isPresent() || model.hasDmaMr(0) || device("mlx5-0").deviceMap(0).isPresent());
            model.injectFault(FwFault.error(FwOpcode.CREATE_RQT, 1, Errno.EIO));
            model.injectFault(FwFault.error(FwOpcode.MODIFY_GENERAL_OBJECT, 1, Errno.EIO));
            model.injectFault(FwFault.error(FwOpcode.CREATE_GENERAL_OBJECT, 1, Errno.EIO));
            v.setStatus(0xF);
            assertEquals(0x8B, v.status(), "ACK|DRIVER|FEATURES_OK|FAILED, no DRIVER_OK");
            assertTrue(device("mlx5-0").deviceMap(0).isEmpty(), "the device's map is gone");
            assertTrue(model.mapGeometry(0).isEmpty(), "the driver's MR is gone");
        }
    }

    // ------------------------------------------------------------------ 6: dev set mac

    /** mlx5_vdpa_set_attr: 7.2 adds F_MAC and refuses after DRIVER_OK (EBUSY); 6.12 does neither; 6.1 has no ATTR_SET. */
    @Test
    void devSetMac() {
        if (is61()) {
            return;
        }
        boolean v72 = "7.2".equals(kernel().version());
        try (VdpaNetlink nl = VdpaNetlink.open(p)) {
            nl.setMacAddress("mlx5-0", MacAddress.parse("02:00:00:00:00:09"));
            assertEquals(v72 ? F_MAC : 0, device("mlx5-0").deviceFeatures() & F_MAC);
            try (Vhost v = startCvq(FEATURES, 2, true)) {
                Runnable again = () -> nl.setMacAddress("mlx5-0", MacAddress.parse("02:00:00:00:00:0a"));
                if (v72) {
                    assertEquals(Errno.EBUSY, errnoOf(again));
                } else {
                    again.run();
                }
            }
        }
    }

    // ------------------------------------------------------------------ 7: vendor statistics

    /** mlx5_vdpa_get_vendor_vq_stats: EINVAL past is_index_valid, CVQ software counters, EAGAIN for a VQ not RDY. */
    @Test
    void vendorStatistics() {
        try (VdpaNetlink nl = VdpaNetlink.open(p)) {
            try (Vhost v = startCvq(FEATURES, 2, false)) {
                assertEquals(Errno.EAGAIN, errnoOf(() -> nl.vendorStats("mlx5-0", 0)), "data VQ 0 is not RDY");
                assertEquals(Errno.EINVAL, errnoOf(() -> nl.vendorStats("mlx5-0", 3)), "without MQ VQ 3 is not valid");
                v.setStatus(0xF);
                assertEquals(0, send(CTRL_MAC, CTRL_MAC_ADDR_SET, 2, 0, 0, 0, 0, 0x44));
                VendorStats cvq = nl.vendorStats("mlx5-0", 2);
                assertEquals(List.of(new VendorStats.Stat("received_desc", 1), new VendorStats.Stat("completed_desc", 1)),
                        cvq.stats());
            }
        }
    }

    /** counter_set_query of a data VQ whose FW object is RDY: its two FW counters (0: the fake's FW moves no frames). */
    @Test
    void vendorStatisticsOfARunningDataVq() {
        try (VdpaNetlink nl = VdpaNetlink.open(p)) {
            try (Vhost v = startCvq(FEATURES, 2, false)) {
                v.vringState(VhostIoctl.SET_VRING_NUM, 0, QSIZE);
                v.vringAddr(0, RING_IOVA, RING_IOVA + PAGE, RING_IOVA + 2 * PAGE);
                v.vringState(VhostIoctl.VDPA_SET_VRING_ENABLE, 0, 1);
                v.setStatus(0xF);
                assertEquals(List.of(new VendorStats.Stat("received_desc", 0), new VendorStats.Stat("completed_desc", 0)),
                        nl.vendorStats("mlx5-0", 0).stats());
                assertEquals(Errno.EAGAIN, errnoOf(() -> nl.vendorStats("mlx5-0", 1)), "VQ 1 was never enabled");
            }
        }
    }

    /** vdpa.c vdpa_dev_vendor_stats_fill: EAGAIN before FEATURES_OK, whatever the index. */
    @Test
    void vendorStatisticsNeedFeaturesOk() {
        try (VdpaNetlink nl = VdpaNetlink.open(p)) {
            assertEquals(Errno.EAGAIN, errnoOf(() -> nl.vendorStats("mlx5-0", 2)));
        }
    }

    // ------------------------------------------------------------------ 8: config space

    /** 6.12+ mlx5_vdpa_dev_add fills mtu, status and max_virtqueue_pairs only with F_MTU, F_STATUS, F_MQ. */
    @Test
    void configFieldsFollowTheDeviceFeatures() {
        if (is61()) {
            try (Vhost v = new Vhost(p, NODE)) {
                byte[] c = v.config(6, 6);
                assertEquals(List.of(1, 16, 1500), List.of(le16(c, 0), le16(c, 2), le16(c, 4)), "status, pairs, mtu always");
            }
            return;
        }
        try (VdpaNetlink nl = VdpaNetlink.open(p)) {
            nl.addDevice(DeviceSpec.of("mlx5-x", SPARE_MGMTDEV).withDeviceFeatures(VERSION_1 | ACCESS_PLATFORM | F_CTRL_VQ));
        }
        try (Vhost v = new Vhost(p, "/dev/vhost-vdpa-1")) {
            byte[] c = v.config(6, 6);
            assertEquals(List.of(0, 0, 0), List.of(le16(c, 0), le16(c, 2), le16(c, 4)), "status, pairs, mtu without the features");
        }
    }

    static int le16(byte[] b, int off) {
        return (b[off] & 0xFF) | (b[off + 1] & 0xFF) << 8;
    }

    // ------------------------------------------------------------------ 9: config interrupts

    /** 6.12+: register_link_notifier at DRIVER_OK (F_STATUS) and resume queue update_carrier, which calls config_cb. */
    @Test
    void configInterrupts() {
        try (Vhost v = startCvq(FEATURES, 2, false)) {
            EventFdFile e = driverOkWithConfigCall(v);
            if (!is61()) {
                v.ioctl(VhostIoctl.VDPA_SUSPEND, MemorySegment.NULL);
                v.ioctl(VhostIoctl.VDPA_RESUME, MemorySegment.NULL);
                assertEquals(2, e.counter(), "after RESUME");
            }
        }
    }

    // ------------------------------------------------------------------ 10: CVQ VLAN

    /** handle_ctrl_vlan: VLAN_ADD / VLAN_DEL with CTRL_VLAN negotiated answer OK. */
    @Test
    void cvqVlanAddAndDelAreOk() {
        try (Vhost v = startCvq(FEATURES, 2, true)) {
            assertEquals(0, send(CTRL_VLAN, 0, 10, 0), "VLAN_ADD 10");
            assertEquals(0, send(CTRL_VLAN, 1, 10, 0), "VLAN_DEL 10");
            assertEquals(1, send(CTRL_MQ, 0, 2, 0), "VQ_PAIRS_SET without MQ: VIRTIO_NET_ERR");
            assertFalse(usedIdx() != 3);
        }
    }

    // ------------------------------------------------------------------ 9: issue 35, the driver's own CVQ

    /**
     * mlx5_vdpa_set_status → setup_cvq_vring: with CTRL_VQ negotiated, vringh refuses a control queue that never
     * got a ring size ("Bad ring size 0"), err_setup adds FAILED to the old status: 0x8b, nothing runs (every
     * kernel). The size is the driver's for the device's life: a later opener that sets none gets DRIVER_OK.
     */
    @Test
    void driverOkWithACvqThatNeverGotARingSizeFails() {
        try (Vhost v = featuresOk(FEATURES)) {
            v.setStatus(0xF);
            assertEquals(0x8b, v.status(), "CTRL_VQ negotiated, no SET_VRING_NUM on the CVQ since dev add");
        }
        try (Vhost v = featuresOk(FEATURES)) {
            v.vringState(VhostIoctl.SET_VRING_NUM, 2, QSIZE);
        }
        try (Vhost v = featuresOk(FEATURES)) {
            v.setStatus(0xF);
            assertEquals(0x0f, v.status(), "the previous opener's CVQ ring size survives the resets");
        }
        try (Vhost v = featuresOk(VERSION_1 | ACCESS_PLATFORM)) {
            v.setStatus(0xF);
            assertEquals(0x0f, v.status(), "without CTRL_VQ the CVQ ring is not set up");
        }
    }

    /**
     * mlx5 keeps a per-queue setting only at an index is_index_valid accepts at that moment: before SET_FEATURES
     * only VQ 0 and 1, so a CVQ ring size given at VQ 2 then is dropped (set_vq_num) and DRIVER_OK fails; and
     * set_vq_ready returns before SET_FEATURES (!actual_features), so an early enable leaves the CVQ stopped.
     */
    @Test
    void cvqSettingsGivenBeforeSetFeaturesAreDropped() {
        try (Vhost v = new Vhost(p, NODE)) {
            v.setOwner();
            v.setU64(VhostIoctl.SET_BACKEND_FEATURES, 0x0E);
            v.setStatus(3);
            v.vringState(VhostIoctl.SET_VRING_NUM, 2, QSIZE);
            v.setU64(VhostIoctl.SET_FEATURES, FEATURES);
            v.setStatus(0xB);
            v.setStatus(0xF);
            assertEquals(0x8b, v.status(), "the ring size given at VQ 2 before SET_FEATURES was not the CVQ's");
        }
        try (Vhost v = new Vhost(p, NODE)) {
            v.setOwner();
            v.setU64(VhostIoctl.SET_BACKEND_FEATURES, 0x0E);
            v.setStatus(3);
            v.vringState(VhostIoctl.VDPA_SET_VRING_ENABLE, 2, 1);
            v.vringState(VhostIoctl.VDPA_SET_VRING_ENABLE, 0, 1);
            v.setU64(VhostIoctl.SET_FEATURES, FEATURES);
            assertEquals(List.of(false, false), List.of(device("mlx5-0").vqReady(2), device("mlx5-0").vqReady(0)),
                    "SET_VRING_ENABLE before SET_FEATURES is ignored");
        }
    }

    /** mlx5_vdpa_reset / compat_reset zero the CVQ's received_desc and completed_desc: every open and close. */
    @Test
    void cvqCountersRestartAtEveryReset() {
        try (VdpaNetlink nl = VdpaNetlink.open(p)) {
            try (Vhost v = startCvq(FEATURES, 2, true)) {
                assertEquals(0, send(CTRL_MAC, CTRL_MAC_ADDR_SET, 2, 0, 0, 0, 0, 0x46));
                assertEquals(List.of(new VendorStats.Stat("received_desc", 1), new VendorStats.Stat("completed_desc", 1)),
                        nl.vendorStats("mlx5-0", 2).stats());
            }
            try (Vhost v = featuresOk(FEATURES)) {
                assertEquals(List.of(new VendorStats.Stat("received_desc", 0), new VendorStats.Stat("completed_desc", 0)),
                        nl.vendorStats("mlx5-0", 2).stats(), "the close and the open reset the device");
            }
        }
    }

    /**
     * mlx5_vdpa_get_vq_state: a data VQ reports its FW object's hw_used_index when it has one, else mvq->used_idx;
     * the CVQ its last_avail_idx, which no reset clears. 6.12+ create blank objects at dev add (0 before DRIVER_OK);
     * 6.1 creates them at DRIVER_OK (the SET value before). After SUSPEND a SET is not in the FW object.
     */
    @Test
    void getVringBaseReadsTheHardwareQueue() {
        try (Vhost v = startCvq(FEATURES, 2, false)) {
            v.vringState(VhostIoctl.SET_VRING_BASE, 0, 5);
            assertEquals(is61() ? 5 : 0, v.vringState(VhostIoctl.GET_VRING_BASE, 0, 0),
                    is61() ? "6.1: no VQ object before DRIVER_OK" : "the blank object from dev add");
            startDataQueues(v); // 6.12's suspend_vqs refuses a range with an INIT object
            v.setStatus(0xF);
            assertEquals(5, v.vringState(VhostIoctl.GET_VRING_BASE, 0, 0), "DRIVER_OK wrote the index into the FW");
            v.ioctl(VhostIoctl.VDPA_SUSPEND, MemorySegment.NULL);
            v.vringState(VhostIoctl.SET_VRING_BASE, 0, 9);
            assertEquals(5, v.vringState(VhostIoctl.GET_VRING_BASE, 0, 0), "suspended: the FW object's index");
        }
        try (Vhost v = featuresOk(FEATURES)) {
            assertEquals(is61() ? 9 : 0, v.vringState(VhostIoctl.GET_VRING_BASE, 0, 0),
                    is61() ? "6.1's reset keeps mvq->used_idx" : "mvqs_set_defaults and a blank object");
        }
    }

    /** The CVQ's last_avail_idx: advanced by each command, kept through the reset of close and open (every kernel). */
    @Test
    void cvqIndexSurvivesTheReset() {
        try (Vhost v = startCvq(FEATURES, 2, true)) {
            assertEquals(0, send(CTRL_MAC, CTRL_MAC_ADDR_SET, 2, 0, 0, 0, 0, 0x48));
            assertEquals(0, send(CTRL_MAC, CTRL_MAC_ADDR_SET, 2, 0, 0, 0, 0, 0x49));
            assertEquals(2, v.vringState(VhostIoctl.GET_VRING_BASE, 2, 0));
        }
        try (Vhost v = featuresOk(FEATURES)) {
            assertEquals(2, v.vringState(VhostIoctl.GET_VRING_BASE, 2, 0), "the previous opener's index");
        }
    }

    /**
     * vhost_vdpa_mmap: past the last queue EINVAL (vhost_vdpa_get_vq_notification); mlx5_get_vq_notification gives
     * a page only for an index valid under the negotiated features that is not the CVQ, else an empty area whose
     * size does not match the page (ENOTSUPP).
     */
    @Test
    void doorbellPagesFollowTheNegotiatedFeatures() {
        int wo = libc_h.PROT_WRITE();
        int shared = libc_h.MAP_SHARED();
        try (Vhost v = new Vhost(p, NODE)) {
            v.setOwner();
            assertEquals(0, Vhost.errno(() -> p.mmap(PAGE, wo, shared, v.fd, 1 * PAGE)), "VQ 1");
            assertEquals(Errno.ENOTSUPP, Vhost.errno(() -> p.mmap(PAGE, wo, shared, v.fd, 2 * PAGE)),
                    "before SET_FEATURES VQ 2 is not valid");
            assertEquals(Errno.EINVAL, Vhost.errno(() -> p.mmap(PAGE, wo, shared, v.fd, 33 * PAGE)), "past VQ 32");
            v.setStatus(3);
            v.setU64(VhostIoctl.SET_FEATURES, FEATURES);
            assertEquals(Errno.ENOTSUPP, Vhost.errno(() -> p.mmap(PAGE, wo, shared, v.fd, 2 * PAGE)),
                    "without MQ VQ 2 is the CVQ");
            v.setStatus(0);
            v.setStatus(3);
            v.setU64(VhostIoctl.SET_FEATURES, FEATURES | F_MQ);
            assertEquals(0, Vhost.errno(() -> p.mmap(PAGE, wo, shared, v.fd, 2 * PAGE)), "with MQ VQ 2 is data");
            assertEquals(Errno.ENOTSUPP, Vhost.errno(() -> p.mmap(PAGE, wo, shared, v.fd, 32 * PAGE)),
                    "with MQ VQ 32 is the CVQ");
        }
    }

    // ------------------------------------------------------------------ 10: issue 35, 6.1's queues and maps

    /** 6.1 mlx5_vdpa_set_driver_features: with MQ every provisioned pair is active at once; later kernels start with one. */
    @Test
    void pairsActiveAfterSetFeatures() {
        try (Vhost v = featuresOk(FEATURES | F_MQ)) {
            assertEquals(is61() ? 32 : 2, ((Mlx5Device) device("mlx5-0").model()).activeVqs());
        }
    }

    /** MQ with 32 pairs provisioned, the first two pairs' rings set and enabled, DRIVER_OK (the CVQ ring set). */
    private Vhost twoPairsLiveWithMq() {
        Vhost v = startCvq(FEATURES | F_MQ, 32, false);
        for (int vq = 0; vq < 4; vq++) {
            v.vringState(VhostIoctl.SET_VRING_NUM, vq, QSIZE);
            v.vringAddr(vq, RING_IOVA, RING_IOVA + PAGE, RING_IOVA + 2 * PAGE);
            v.vringState(VhostIoctl.VDPA_SET_VRING_ENABLE, vq, 1);
        }
        v.setStatus(0xF);
        return v;
    }

    /**
     * 6.1 activates every provisioned pair at SET_FEATURES with MQ (cur_num_vqs = 2 × rqt_size, mlx5_vnet.c 6.1.192
     * l. 2290-2295), so SUSPEND stops every pair's VQs (mlx5_vdpa_suspend l. 2833), here VQ 3 of pair 2; 6.12+ have
     * one pair active until VQ_PAIRS_SET, and SUSPEND leaves VQ 3 as it was (INIT, never resumed).
     */
    @Test
    void on61SuspendStopsTheVqsOfEveryPair() {
        try (Vhost v = twoPairsLiveWithMq()) {
            v.ioctl(VhostIoctl.VDPA_SUSPEND, MemorySegment.NULL);
            Mlx5Device model = (Mlx5Device) device("mlx5-0").model();
            assertEquals(VqState.SUSPEND, model.vqState(1), "the first pair, on every kernel");
            assertEquals(is61() ? VqState.SUSPEND : VqState.INIT, model.vqState(3));
        }
    }

    /**
     * Issue 35 item 4, "a first VQ_PAIRS_SET shrinks": 6.1 has every pair active from SET_FEATURES with MQ, so the
     * first VQ_PAIRS_SET(1) is a shrink (change_num_qps: modify_rqt, then teardown_vq of VQs 2..2·pairs-1, 6.1.192
     * mlx5_vnet.c), and VQ 3's object is destroyed; 6.12+ start with one pair, so the same command changes nothing
     * and VQ 3 stays the pre-created INIT object.
     */
    @Test
    void on61AFirstPairsSetShrinks() {
        try (Vhost v = twoPairsLiveWithMq()) {
            Mlx5Device model = (Mlx5Device) device("mlx5-0").model();
            assertEquals(is61() ? 32 : 2, model.activeVqs(), "before VQ_PAIRS_SET");
            assertEquals(is61() ? VqState.RDY : VqState.INIT, model.vqState(3));
            assertEquals(0, send(CTRL_MQ, 0, 1, 0), "VQ_PAIRS_SET(1): VIRTIO_NET_OK");
            assertEquals(2, model.activeVqs(), "one pair after VQ_PAIRS_SET(1)");
            assertEquals(is61() ? VqState.NONE : VqState.INIT, model.vqState(3), "6.1: pair 2's VQ torn down");
            assertEquals(VqState.RDY, model.vqState(1), "the first pair runs on");
        }
    }

    /** 6.1's is_valid_state_change never allows SUSPEND → RDY: a suspended data VQ stays suspended when enabled again. */
    @Test
    void aSuspendedDataQueueIsReadyAgainOnlyAfter61() {
        try (Vhost v = startCvq(FEATURES, 2, false)) {
            startDataQueues(v);
            v.setStatus(0xF);
            v.ioctl(VhostIoctl.VDPA_SUSPEND, MemorySegment.NULL);
            v.vringState(VhostIoctl.VDPA_SET_VRING_ENABLE, 0, 1);
            assertEquals(is61() ? VqState.SUSPEND : VqState.RDY, ((Mlx5Device) device("mlx5-0").model()).vqState(0));
        }
    }

    /**
     * 6.1: once the data MR exists, a set_map of any ASID (here ASID 1, which no group uses) destroys and re-creates
     * every VQ after DRIVER_OK and builds no MKEY for it; 6.12+ build an MR for ASID 1 and leave the VQs alone.
     */
    @Test
    void aMapOfAnotherAsidRecreatesTheQueuesOn61() {
        try (Vhost v = startCvq(FEATURES, 2, false)) {
            startDataQueues(v);
            v.setStatus(0xF);
            Mlx5Device model = (Mlx5Device) device("mlx5-0").model();
            model.setTracing(true);
            v.iotlb(1, Vhost.UPDATE, RING_IOVA, 4 * PAGE, ring.address());
            List<String> trace = model.lastTrace();
            assertEquals(is61(), trace.stream().anyMatch(l -> l.contains("DESTROY_GENERAL_OBJECT")), trace.toString());
            assertEquals(is61(), trace.stream().noneMatch(l -> l.contains("MKEY")), trace.toString());
            assertEquals(VqState.RDY, model.vqState(0), "running again after the map change");
        }
    }

    /** VQ 0 and 1 with rings and enabled (both: 6.12's suspend_vqs refuses a range with an INIT object, EINVAL). */
    private void startDataQueues(Vhost v) {
        for (int vq = 0; vq < 2; vq++) {
            v.vringState(VhostIoctl.SET_VRING_NUM, vq, QSIZE);
            v.vringAddr(vq, RING_IOVA, RING_IOVA + PAGE, RING_IOVA + 2 * PAGE);
            v.vringState(VhostIoctl.VDPA_SET_VRING_ENABLE, vq, 1);
        }
    }

    // ------------------------------------------------------------------ 11: issue 35 item 9, the CVQ's smaller answers

    /** handle_ctrl_mac: MAC_ADDR_SET of the MAC already set is OK, of all zeros VIRTIO_NET_ERR, and the MAC is kept. */
    @Test
    void aZeroMacFromTheCvqIsRefused() {
        try (Vhost v = startCvq(FEATURES, 2, true)) {
            assertEquals(0, send(CTRL_MAC, CTRL_MAC_ADDR_SET, 2, 0, 0, 0, 0, 0x4a));
            assertEquals(0, send(CTRL_MAC, CTRL_MAC_ADDR_SET, 2, 0, 0, 0, 0, 0x4a), "the same MAC");
            assertEquals(1, send(CTRL_MAC, CTRL_MAC_ADDR_SET, 0, 0, 0, 0, 0, 0), "all zeros");
            assertArrayEquals(new byte[] {2, 0, 0, 0, 0, 0x4a}, device("mlx5-0").configMac(), "the MAC is kept");
        }
    }

    /** handle_ctrl_vlan: mac_vlan_add refuses a rule that exists (-EEXIST → VIRTIO_NET_ERR); VLAN_DEL is always OK. */
    @Test
    void aDuplicateVlanAddIsRefused() {
        try (Vhost v = startCvq(FEATURES, 2, true)) {
            assertEquals(0, send(CTRL_VLAN, 0, 5, 0));
            assertEquals(1, send(CTRL_VLAN, 0, 5, 0), "VLAN 5 again");
            assertEquals(0, send(CTRL_VLAN, 1, 5, 0));
            assertEquals(0, send(CTRL_VLAN, 1, 5, 0), "VLAN_DEL of a rule that is gone");
            assertEquals(0, send(CTRL_VLAN, 0, 5, 0), "added again after the delete");
        }
    }

    /** mlx5_cvq_kick_handler notifies only when vringh_need_notify_iotlb says so: VRING_AVAIL_F_NO_INTERRUPT holds it back. */
    @Test
    void theCvqHonoursNoInterrupt() {
        try (Vhost v = startCvq(FEATURES, 2, false)) {
            int call = p.eventfd(0, libc_h.EFD_NONBLOCK());
            v.vringFile(VhostIoctl.SET_VRING_CALL, 2, call);
            v.setStatus(0xF);
            ring.asSlice(PAGE, PAGE).set(ValueLayout.JAVA_SHORT, 0, (short) vhost_h.VRING_AVAIL_F_NO_INTERRUPT());
            assertEquals(0, send(CTRL_VLAN, 0, 6, 0));
            MemorySegment count = MemorySegment.ofArray(new long[1]);
            assertEquals(Errno.EAGAIN, Vhost.errno(() -> p.read(call, count)), "no interrupt with NO_INTERRUPT");
            ring.asSlice(PAGE, PAGE).set(ValueLayout.JAVA_SHORT, 0, (short) 0);
            assertEquals(0, send(CTRL_VLAN, 0, 7, 0));
            assertEquals(0, Vhost.errno(() -> p.read(call, count)), "the interrupt once the flag is gone");
            p.close(call);
        }
    }

    // ------------------------------------------------------------------ 12: issue 35 item 9, error paths and the CVQ's IOTLB

    /**
     * mlx5_vdpa_get_vendor_vq_stats says why with NL_SET_ERR_MSG_MOD (module mlx5_vdpa): "virtqueue index is not
     * valid" with EINVAL, "failed to query hardware" with counter_set_query's EAGAIN (every kernel).
     */
    @Test
    void vendorStatisticsSayWhyInTheExtack() {
        try (VdpaNetlink nl = VdpaNetlink.open(p); Vhost v = startCvq(FEATURES, 2, true)) {
            NetlinkException invalid = assertThrows(NetlinkException.class, () -> nl.vendorStats("mlx5-0", 3));
            assertEquals(List.of(Errno.EINVAL, "mlx5_vdpa: virtqueue index is not valid"),
                    List.of(invalid.errno(), String.valueOf(invalid.extackMessage())));
            NetlinkException notRdy = assertThrows(NetlinkException.class, () -> nl.vendorStats("mlx5-0", 0));
            assertEquals(List.of(Errno.EAGAIN, "mlx5_vdpa: failed to query hardware"),
                    List.of(notRdy.errno(), String.valueOf(notRdy.extackMessage())));
        }
    }

    /**
     * 6.12+ mlx5_vdpa_suspend: suspend_vqs fails (VQ 0 RDY, VQ 1 still INIT: modify_virtqueues EINVAL) yet
     * mlx5_vdpa_cvq_suspend runs: the CVQ is stopped. 6.1's suspend succeeds and stops it too.
     */
    @Test
    void aFailedSuspendStillStopsTheCvq() {
        try (Vhost v = startCvq(FEATURES, 2, false)) {
            v.vringState(VhostIoctl.SET_VRING_NUM, 0, QSIZE);
            v.vringAddr(0, RING_IOVA, RING_IOVA + PAGE, RING_IOVA + 2 * PAGE);
            v.vringState(VhostIoctl.VDPA_SET_VRING_ENABLE, 0, 1);
            v.setStatus(0xF);
            assertEquals(0, send(CTRL_MAC, CTRL_MAC_ADDR_SET, 2, 0, 0, 0, 0, 0x4b), "the CVQ runs before SUSPEND");
            int err = Vhost.errno(() -> v.ioctl(VhostIoctl.VDPA_SUSPEND, MemorySegment.NULL));
            assertEquals(is61() ? 0 : Errno.EINVAL, err, "VQ 1 is INIT");
            assertEquals(0xFF, send(CTRL_MAC, CTRL_MAC_ADDR_SET, 2, 0, 0, 0, 0, 0x4c), "the CVQ stopped all the same");
        }
    }

    /** 6.12+ mlx5_vdpa_resume: resume_vqs fails (a FW error) yet queue_link_work raises the config interrupt. */
    @Test
    void aFailedResumeStillRaisesTheConfigInterrupt() {
        if (is61()) {
            return; // no .resume op
        }
        try (Vhost v = startCvq(FEATURES, 2, false)) {
            startDataQueues(v);
            EventFdFile e = driverOkWithConfigCall(v);
            v.ioctl(VhostIoctl.VDPA_SUSPEND, MemorySegment.NULL);
            long before = e.counter();
            ((Mlx5Device) device("mlx5-0").model()).injectFault(FwFault.error(FwOpcode.MODIFY_GENERAL_OBJECT, 1, Errno.EIO));
            assertTrue(Vhost.errno(() -> v.ioctl(VhostIoctl.VDPA_RESUME, MemorySegment.NULL)) != 0, "RESUME failed");
            assertEquals(before + 1, e.counter(), "update_carrier ran all the same");
        }
    }

    /** 6.12+ update_carrier sets VIRTIO_NET_S_LINK_UP in the config's status after RESUME, also without F_STATUS. */
    @Test
    void resumeSetsLinkUpEvenWithoutStatusFeature() {
        if (is61()) {
            return; // no .resume op; 6.1 always fills the status
        }
        try (VdpaNetlink nl = VdpaNetlink.open(p)) {
            nl.addDevice(DeviceSpec.of("mlx5-x", SPARE_MGMTDEV).withDeviceFeatures(VERSION_1 | ACCESS_PLATFORM));
        }
        try (Vhost v = new Vhost(p, "/dev/vhost-vdpa-1")) {
            v.setOwner();
            v.setStatus(3);
            v.setU64(VhostIoctl.SET_FEATURES, VERSION_1 | ACCESS_PLATFORM);
            v.setStatus(0xB);
            v.setStatus(0xF);
            assertEquals(0, le16(v.config(6, 2), 0), "no F_STATUS: the status field is not filled at dev add");
            v.ioctl(VhostIoctl.VDPA_SUSPEND, MemorySegment.NULL);
            v.ioctl(VhostIoctl.VDPA_RESUME, MemorySegment.NULL);
            assertEquals(vhost_h.VIRTIO_NET_S_LINK_UP(), le16(v.config(6, 2), 0), "update_carrier after RESUME");
        }
    }

    /**
     * The CVQ reads through its own copy of an ASID's IOTLB: SET_GROUP_ASID of the CVQ group to an ASID without a map
     * keeps the old translation until that ASID gets one (every kernel); to an ASID that has a map, 6.12+ switch at
     * once, 6.1 only at that ASID's next set_map.
     */
    @Test
    void setGroupAsidKeepsTheCvqsTranslationUntilTheNewAsidHasAMap() {
        int cvqGroup = 1;
        try (Vhost v = startCvq(FEATURES, 2, false)) {
            v.vringState(VhostIoctl.VDPA_SET_GROUP_ASID, cvqGroup, 1);
            v.setStatus(0xF);
            assertEquals(0, send(CTRL_MAC, CTRL_MAC_ADDR_SET, 2, 0, 0, 0, 0, 0x4d), "ASID 1 has no map: ASID 0's copy");
            v.iotlb(1, Vhost.UPDATE, 0x4000_0000L, PAGE, ring.address());
            assertEquals(0xFF, send(CTRL_MAC, CTRL_MAC_ADDR_SET, 2, 0, 0, 0, 0, 0x4e),
                    "ASID 1's map (the ring is not in it) is the CVQ's now");
        }
        try (Vhost v = startCvq(FEATURES, 2, false)) {
            v.iotlb(1, Vhost.UPDATE, 0x4000_0000L, PAGE, ring.address());
            v.vringState(VhostIoctl.VDPA_SET_GROUP_ASID, cvqGroup, 1);
            v.setStatus(0xF);
            assertEquals(is61() ? 0 : 0xFF, send(CTRL_MAC, CTRL_MAC_ADDR_SET, 2, 0, 0, 0, 0, 0x4f),
                    is61() ? "6.1: ASID 0's copy until ASID 1's next set_map" : "ASID 1 has an MR: copied at SET_GROUP_ASID");
        }
    }

    // ------------------------------------------------------------------ 13: issue 35 item 7, the PCI function

    static final String MGMTDEV = "pci/0000:08:00.2";

    /**
     * mlx5_vdpa_dev_add without a provisioned MAC reads the function's (mlx5_query_nic_vport_mac_address): a MAC the
     * administrator set on the function gives the next device that MAC and F_MAC; 6.12+ skip the query when
     * features were provisioned without F_MAC.
     */
    @Test
    void aMacSetOnTheFunctionGivesTheNextDeviceItsMacAndFMac() {
        byte[] mac = {2, 0, 0, 0, 0, 0x51};
        kernel.setFunctionMac(SPARE_MGMTDEV, mac);
        try (VdpaNetlink nl = VdpaNetlink.open(p)) {
            nl.addDevice(DeviceSpec.of("mlx5-x", SPARE_MGMTDEV));
            assertArrayEquals(mac, device("mlx5-x").configMac(), "the function's MAC in the config space");
            assertEquals(F_MAC, device("mlx5-x").deviceFeatures() & F_MAC, "a MAC brings F_MAC");
            nl.deleteDevice("mlx5-x");
            if (!is61()) {
                nl.addDevice(DeviceSpec.of("mlx5-y", SPARE_MGMTDEV).withDeviceFeatures(VERSION_1 | ACCESS_PLATFORM));
                assertArrayEquals(new byte[6], device("mlx5-y").configMac(), "features without F_MAC: no query");
            }
        }
        assertArrayEquals(new byte[6], device("mlx5-0").configMac(), "added before the function had a MAC");
    }

    /** config_func_mtu writes a provisioned MTU to the function's vport; query_mtu gives it to the next device. */
    @Test
    void aProvisionedMtuStaysOnTheFunctionForTheNextDevice() {
        try (VdpaNetlink nl = VdpaNetlink.open(p)) {
            nl.addDevice(DeviceSpec.of("mlx5-x", SPARE_MGMTDEV).withMtu(9000));
            nl.deleteDevice("mlx5-x");
            nl.addDevice(DeviceSpec.of("mlx5-y", SPARE_MGMTDEV));
        }
        try (Vhost v = new Vhost(p, "/dev/vhost-vdpa-1")) {
            assertEquals(9000, le16(v.config(10, 2), 0), "the vport kept the previous device's MTU");
        }
        assertEquals(9000, FakeInside.function(kernel, SPARE_MGMTDEV).mtu());
    }

    /**
     * A port change event: event_handler → update_carrier sets or clears LINK_UP and raises the config interrupt.
     * 6.12+ listen from DRIVER_OK (F_STATUS) and ignore events while suspended, RESUME reads the link again; 6.1
     * listens from dev add and a SUSPEND stops the config interrupts for good.
     */
    @Test
    void aLinkChangeRaisesTheConfigInterruptAsTheDriverListens() {
        try (Vhost v = startCvq(FEATURES, 2, false)) {
            EventFdFile e = driverOkWithConfigCall(v);
            long n = e.counter();
            kernel.setFunctionLink(MGMTDEV, false);
            assertLinkDownRaised(v, e, n + 1, "link down");
            v.ioctl(VhostIoctl.VDPA_SUSPEND, MemorySegment.NULL);
            kernel.setFunctionLink(MGMTDEV, true);
            assertSuspendedIgnoresTheLink(v, e, n + 1);
            if (is61()) {
                return;
            }
            assertResumeReadsTheLink(v, e, n + 2);
            kernel.setFunctionLink(MGMTDEV, false);
            assertEquals(n + 3, e.counter(), "listening again after RESUME");
        }
    }

    /** 6.1: the notifier a SUSPEND removed is not registered again by a reset or the next DRIVER_OK. */
    @Test
    void on61ASuspendStopsConfigInterruptsForGood() {
        if (!is61()) {
            return;
        }
        try (Vhost v = startCvq(FEATURES, 2, true)) {
            v.ioctl(VhostIoctl.VDPA_SUSPEND, MemorySegment.NULL);
        }
        try (Vhost v = startCvq(FEATURES, 2, false)) {
            EventFdFile e = driverOkWithConfigCall(v);
            kernel.setFunctionLink(MGMTDEV, false);
            assertEquals(0, e.counter(), "the next opener gets no link interrupt");
        }
    }

    /**
     * Issue 35 item 7, a link flap as a fault rule (docs/fake-faults.md, "Link changes"): the function goes down at the
     * first SUSPEND (before the suspend, so the notifier still listens on every kernel), comes back up inside the
     * downtime window (suspended: no interrupt, no carrier update) and goes down again after it: 6.12+ listen again
     * once RESUME read the link back; on 6.1 the SUSPEND unregistered the notifier for good, so nothing.
     */
    @Test
    void aLinkRuleFlapsTheFunctionAtTheChosenCalls() {
        kernel.faults().addRule(FaultRule.linkAt("mlx5-0", "VHOST_VDPA_SUSPEND", 1, false));
        kernel.faults().addRule(FaultRule.linkAt("mlx5-0", "VHOST_GET_VRING_BASE", 1, true));
        kernel.faults().addRule(FaultRule.linkAt("mlx5-0", "VHOST_GET_VRING_BASE", 2, false));
        try (Vhost v = startCvq(FEATURES, 2, false)) {
            EventFdFile e = driverOkWithConfigCall(v);
            long n = e.counter();
            v.ioctl(VhostIoctl.VDPA_SUSPEND, MemorySegment.NULL);
            assertFalse(FakeInside.function(kernel, MGMTDEV).linkUp(), "the rule took the port down");
            assertLinkDownRaised(v, e, n + 1, "link down before the SUSPEND: the notifier still listened");
            v.vringState(VhostIoctl.GET_VRING_BASE, 2, 0);
            assertTrue(FakeInside.function(kernel, MGMTDEV).linkUp(), "the port came back inside the window");
            assertSuspendedIgnoresTheLink(v, e, n + 1);
            if (!is61()) {
                assertResumeReadsTheLink(v, e, n + 2);
            }
            v.vringState(VhostIoctl.GET_VRING_BASE, 2, 0);
            assertFalse(FakeInside.function(kernel, MGMTDEV).linkUp());
            if (is61()) {
                assertEquals(n + 1, e.counter(), "6.1: no config interrupt after a SUSPEND");
                assertEquals(0, linkStatus(v), "6.1: the config status as the last event before SUSPEND left it");
            } else {
                assertLinkDownRaised(v, e, n + 3, "listening again after RESUME");
            }
            assertEquals(3, kernel.faults().fired().size());
        }
    }

    /**
     * The config interrupt's eventfd given as QEMU gives it (VHOST_VDPA_SET_CONFIG_CALL), then DRIVER_OK: 6.12+
     * register the link notifier there and queue the link work (one interrupt), 6.1 listens from dev add (none).
     */
    private EventFdFile driverOkWithConfigCall(Vhost v) {
        int config = p.eventfd(0, libc_h.EFD_NONBLOCK());
        v.setU32(VhostIoctl.VDPA_SET_CONFIG_CALL, config);
        EventFdFile e = (EventFdFile) FakeInside.fileOf(p, config);
        v.setStatus(0xF);
        assertEquals(is61() ? 0 : 1, e.counter(), "after DRIVER_OK with F_STATUS");
        return e;
    }

    /** The config space's status field (virtio_net_config.status, offset 6): LINK_UP or 0. */
    private static int linkStatus(Vhost v) {
        return le16(v.config(6, 2), 0);
    }

    /** update_carrier for a port that went down: the config interrupt raised ({@code count} in all) and LINK_UP cleared. */
    private static void assertLinkDownRaised(Vhost v, EventFdFile e, long count, String why) {
        assertEquals(count, e.counter(), why);
        assertEquals(0, linkStatus(v), why + ": LINK_UP cleared");
    }

    /** A suspended device ignores port events: the interrupt count stays at {@code count}, LINK_UP stays cleared. */
    private static void assertSuspendedIgnoresTheLink(Vhost v, EventFdFile e, long count) {
        assertEquals(count, e.counter(), "suspended: no interrupt");
        assertEquals(0, linkStatus(v), "suspended: no carrier update");
    }

    /** 6.12+ RESUME queues the link work: the config interrupt ({@code count} in all) and LINK_UP read from the port. */
    private static void assertResumeReadsTheLink(Vhost v, EventFdFile e, long count) {
        v.ioctl(VhostIoctl.VDPA_RESUME, MemorySegment.NULL);
        assertEquals(count, e.counter(), "RESUME queues the link work");
        assertEquals(vhost_h.VIRTIO_NET_S_LINK_UP(), linkStatus(v), "the link read again");
    }

    /** A link rule on a netlink command naming the device changes that device's function (no device call involved). */
    @Test
    void aLinkRuleOnANetlinkCommandChangesTheNamedDevicesFunction() {
        kernel.faults().addRule(FaultRule.linkAt("mlx5-0", "VDPA_CMD_DEV_GET", 1, false));
        try (VdpaNetlink nl = VdpaNetlink.open(p)) {
            nl.device("mlx5-0");
        }
        assertFalse(FakeInside.function(kernel, MGMTDEV).linkUp());
        assertTrue(FakeInside.function(kernel, SPARE_MGMTDEV).linkUp(), "another function untouched");
    }

    /**
     * A saved state's MAC goes back as it came: one the CVQ set (handle_ctrl_mac) only into the config space, one
     * `dev set mac` set through mlx5_vdpa_set_attr again, so on 7.2 only the latter offers F_MAC in the next process.
     */
    @Test
    void aMacFromTheCvqGainsNoMacFeatureInTheNextProcess() {
        byte[] mac = {2, 0, 0, 0, 0, 0x52};
        try (Vhost v = startCvq(FEATURES, 2, true)) {
            assertEquals(0, send(CTRL_MAC, CTRL_MAC_ADDR_SET, 2, 0, 0, 0, 0, 0x52));
        }
        try (FakeKernel next = FakeInside.inventory(FakeKernel.builder().kernel(kernel()), FakeInside.inventory(kernel)).build()) {
            FakeVdpaDevice d = FakeInside.device(next, "mlx5-0").orElseThrow();
            assertArrayEquals(mac, d.configMac(), "the CVQ's MAC kept");
            assertEquals(0, d.deviceFeatures() & F_MAC, "no F_MAC: the MAC came from the CVQ, not dev set mac");
        }
        if (is61()) {
            return; // no dev set mac
        }
        try (VdpaNetlink nl = VdpaNetlink.open(p)) {
            nl.setMacAddress("mlx5-0", MacAddress.parse("02:00:00:00:00:53"));
        }
        boolean v72 = "7.2".equals(kernel().version());
        try (FakeKernel next = FakeInside.inventory(FakeKernel.builder().kernel(kernel()), FakeInside.inventory(kernel)).build()) {
            assertEquals(v72 ? F_MAC : 0, FakeInside.device(next, "mlx5-0").orElseThrow().deviceFeatures() & F_MAC,
                    "dev set mac repeated through the driver: 7.2 offers F_MAC");
        }
    }

    // ------------------------------------------------------------------ 14: issue 35 item 9, set_map's failure and reset_map at close

    /**
     * mlx5_vdpa_change_map on FW without freeze_to_rdy (VQs torn down and re-created): when re-creating them fails, the
     * ASID keeps the old MR on 6.12.118 (l. 3062-3081), the new one on 7.2.13 (l. 3053-3089), none on 6.1.192
     * (err_setup, l. 2427-2428). Inside a batch, so that the failure stays (vhost-vdpa ignores set_map's answer at
     * BATCH_END; an unbatched UPDATE's failure makes vhost_vdpa_unmap push the old table again, which hides it).
     */
    @Test
    void aFailedMapChangeLeavesTheMrTheDriverLeaves() {
        Mlx5Device model = (Mlx5Device) device("mlx5-0").model();
        model.setCapabilities(model.capabilities().withoutResume());
        try (Vhost v = startCvq(FEATURES, 2, false)) {
            startDataQueues(v);
            v.setStatus(0xF);
            var before = model.mapGeometry(0);
            assertTrue(before.isPresent(), "the ring's map built an MR");
            model.injectFault(FwFault.error(FwOpcode.CREATE_GENERAL_OBJECT, 1, Errno.EIO));
            v.iotlb(0, Vhost.BATCH_BEGIN, 0, 0, 0);
            v.iotlb(0, Vhost.UPDATE, 0x40000000L, 4 * PAGE, ring.address());
            v.iotlb(0, Vhost.BATCH_END, 0, 0, 0);
            assertEquals(1, device("mlx5-0").counters().ops().get("set_map").failures(), "the map change failed");
            switch (kernel().version()) {
                case "6.1" -> assertTrue(model.mapGeometry(0).isEmpty(), "6.1: the new MR destroyed, none left");
                case "6.12" -> assertEquals(before, model.mapGeometry(0), "6.12: the old MR put back");
                default -> {
                    assertTrue(model.mapGeometry(0).isPresent(), "7.2: an MR stays");
                    assertFalse(before.equals(model.mapGeometry(0)), "7.2: the failed map's MR stays installed");
                }
            }
        }
    }

    /**
     * mlx5_vdpa_change_map ignores what resume_vqs answers (6.12.118 l. 3084; 7.2.13 l. 3086): a map change whose VQ
     * resume fails still succeeds, the UPDATE is written (72) and the VQ stays suspended. 6.1's change never resumes
     * (it re-creates the VQs).
     */
    @Test
    void aMapChangeWhoseResumeFailsStillSucceeds() {
        if (is61()) {
            return;
        }
        try (Vhost v = startCvq(FEATURES, 2, false)) {
            startDataQueues(v);
            v.setStatus(0xF);
            Mlx5Device model = (Mlx5Device) device("mlx5-0").model();
            // the change suspends VQ 0 and 1 (two MODIFYs), then resumes them: the third MODIFY fails
            model.injectFault(FwFault.error(FwOpcode.MODIFY_GENERAL_OBJECT, 3, Errno.EIO));
            assertEquals(72, v.iotlb(0, Vhost.UPDATE, 0x40000000L, 4 * PAGE, ring.address()));
            assertEquals(0, device("mlx5-0").counters().ops().get("set_map").failures());
            assertEquals(VqState.SUSPEND, model.vqState(0), "the VQ whose resume failed stays suspended");
        }
    }

    /**
     * setup_cvq_vring copies the CVQ's addresses into its vringh at DRIVER_OK; mlx5_vdpa_set_vq_address later stores
     * cvq->desc_addr and friends only (6.1.192 mlx5_vnet.c l. 1959-1963, 2509-2527; 6.12.118 l. 2460-2465, 3167-3185),
     * so a CVQ given another (here unmapped) ring after DRIVER_OK still serves the ring it had at DRIVER_OK. 6.12+
     * take the new address only while suspended (vhost-vdpa); 6.1 at any time.
     */
    @Test
    void aCvqReaddressedAfterDriverOkKeepsItsDriverOkRing() {
        try (Vhost v = startCvq(FEATURES, 2, true)) {
            if (!is61()) {
                v.ioctl(VhostIoctl.VDPA_SUSPEND, MemorySegment.NULL);
            }
            v.vringAddr(2, RING_IOVA + 0x100000, RING_IOVA + 0x101000, RING_IOVA + 0x102000);
            if (!is61()) {
                v.ioctl(VhostIoctl.VDPA_RESUME, MemorySegment.NULL);
                v.vringState(VhostIoctl.VDPA_SET_VRING_ENABLE, 2, 1);
            }
            assertEquals(0, send(CTRL_MAC, CTRL_MAC_ADDR_SET, 2, 0, 0, 0, 0, 0x46), "served from the DRIVER_OK ring");
        }
    }

    /**
     * At close vhost-vdpa resets with CLEAN_MAP (a DMA MR built) and then calls reset_map for every address space
     * (vhost_vdpa_remove_as): mlx5_vdpa_reset_mr drops ASID 0's MR and builds the DMA MR again, one synchronous
     * DMA MKEY that the close pays, the dropped one destroyed by 6.12+'s GC. 6.1 has no reset_map.
     */
    @Test
    void closingTheNodeRebuildsTheDmaMrAtResetMap() {
        try (Vhost v = startCvq(FEATURES, 2, true)) {
            assertEquals(0, device("mlx5-0").counters().calls("reset_map"));
        }
        Mlx5Device model = (Mlx5Device) device("mlx5-0").model();
        var resetMap = device("mlx5-0").counters().ops().get("reset_map");
        if (is61()) {
            assertEquals(null, resetMap, "6.1's mlx5_vdpa_ops has no reset_map");
            return;
        }
        assertEquals(1, resetMap.calls(), "ASID 0, the one address space the opener mapped");
        assertEquals(1, resetMap.syncCommands(), "the DMA MKEY created again");
        assertTrue(resetMap.nanos() > 0, "the rebuild costs what the model charges for it");
        assertTrue(resetMap.deferredNanos() > 0, "the DMA MR of the reset destroyed by the GC");
        assertTrue(model.hasDmaMr(0), "ASID 0 back to the DMA MR");
    }
}
