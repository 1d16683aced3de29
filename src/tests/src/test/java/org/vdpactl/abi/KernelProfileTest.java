package org.vdpactl.abi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.vdpactl.fake.vhost.Vhost.errno;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.junit.jupiter.api.Test;
import org.vdpactl.fake.FakeKernel;
import org.vdpactl.fake.FakeProcess;
import org.vdpactl.fake.vhost.Vhost;
import org.vdpactl.ffi.gen.vhost.vhost_h;
import org.vdpactl.mgmt.VdpaCommand;
import org.vdpactl.sys.Errno;
import org.vdpactl.vhost.VhostIoctl;

/** The fake's kernel profiles: the facts of docs/kernel-profiles.md as the fake answers them. */
class KernelProfileTest {

    /** vduse_dev.c's id table: block only on 6.1 (6.1.192), block and net since VDUSE net support (6.12.117, 7.2.13). */
    @Test
    void vduseClassesFollowVduseDevCsIdTable() {
        long block = 1L << vhost_h.VIRTIO_ID_BLOCK();
        long net = 1L << vhost_h.VIRTIO_ID_NET();
        assertEquals(block, KernelProfiles.byName("6.1").orElseThrow().vduseClassMask());
        assertEquals(block | net, KernelProfiles.byName("6.12").orElseThrow().vduseClassMask());
        assertEquals(block | net, KernelProfiles.byName("7.2").orElseThrow().vduseClassMask());
    }
    private static final String NET = "/dev/vhost-vdpa-0";
    private static final long BASE = 0xE; // IOTLB_MSG_V2 | IOTLB_BATCH | IOTLB_ASID
    private static final long SUSPEND = 1L << vhost_h.VHOST_BACKEND_F_SUSPEND();
    private static final long RESUME = 1L << vhost_h.VHOST_BACKEND_F_RESUME();

    private static long offered(String version) {
        try (FakeKernel k = FakeKernel.builder().kernel(version).build();
             FakeProcess p = k.newProcess();
             Vhost v = new Vhost(p, NET)) {
            return v.getU64(VhostIoctl.GET_BACKEND_FEATURES);
        }
    }

    @Test
    void namesAndAliasesResolve() {
        assertEquals("6.12", KernelProfiles.defaultProfile().version());
        assertEquals("7.2", KernelProfiles.byName("newest").orElseThrow().version());
        assertEquals("6.1", KernelProfiles.byName("6.1").orElseThrow().version());
        assertTrue(KernelProfiles.byName("6.6").isEmpty());
        assertEquals("6.12", FakeKernel.builder().build().kernelProfile().version());
    }

    @Test
    void releasesMapToTheNewestProfileNotNewerThanThem() {
        assertEquals("6.1", KernelProfiles.forRelease("6.1.0-41-amd64").orElseThrow().version());
        assertEquals("6.1", KernelProfiles.forRelease("6.8.0-50-generic").orElseThrow().version());
        assertEquals("6.12", KernelProfiles.forRelease("6.12.117").orElseThrow().version());
        assertEquals("7.2", KernelProfiles.forRelease("7.3.1").orElseThrow().version());
        assertEquals("6.1", KernelProfiles.forRelease("5.15.0").orElseThrow().version());
    }

    @Test
    void vdpaSimOffersSuspendButNotResumeOn61() {
        assertEquals(BASE | SUSPEND, offered("6.1"));
        // 6.12 and 7.2: + RESUME, ENABLE_AFTER_DRIVER_OK (get_backend_features), IOTLB_PERSIST (reset_map)
        assertEquals(0x17EL, offered("6.12"));
        assertEquals(0x17EL, offered("newest"));
    }

    @Test
    void anIoctlThe61KernelLacksFailsLikeItsUnknownIoctlPath() {
        try (FakeKernel k = FakeKernel.builder().kernel("6.1").build();
             FakeProcess p = k.newProcess();
             Vhost v = new Vhost(p, NET)) {
            MemorySegment idx = v.arena.allocate(8);
            // vhost_dev_ioctl first: not the owner
            assertEquals(Errno.EPERM, errno(() -> v.ioctl(VhostIoctl.VDPA_RESUME, idx)));
            v.setOwner();
            // vhost_vdpa_vring_ioctl reads a vq index from the argument: NULL faults
            assertEquals(Errno.EFAULT, errno(() -> v.ioctl(VhostIoctl.VDPA_RESUME, MemorySegment.NULL)));
            idx.set(ValueLayout.JAVA_INT, 0, 7);
            assertEquals(Errno.ENOBUFS, errno(() -> v.ioctl(VhostIoctl.VDPA_GET_VRING_SIZE, idx)));
            idx.set(ValueLayout.JAVA_INT, 0, 0);
            // then vhost_vring_ioctl's -ENOIOCTLCMD, which vfs_ioctl reports as ENOTTY
            assertEquals(Errno.ENOTTY, errno(() -> v.ioctl(VhostIoctl.VDPA_RESUME, idx)));
            assertEquals(Errno.ENOTTY, errno(() -> v.ioctl(VhostIoctl.VDPA_GET_VRING_DESC_GROUP, idx)));
            assertEquals(Errno.ENOTTY, errno(() -> v.ioctl(VhostIoctl.SET_FORK_FROM_OWNER, idx)));
            // and SET_BACKEND_FEATURES refuses bits 6.1 does not know
            assertEquals(Errno.EOPNOTSUPP, errno(() -> v.setU64(VhostIoctl.SET_BACKEND_FEATURES, BASE | RESUME)));
            v.setU64(VhostIoctl.SET_BACKEND_FEATURES, BASE | SUSPEND);
        }
    }

    @Test
    void the612ProfileKeepsResume() {
        try (FakeKernel k = FakeKernel.builder().build();
             FakeProcess p = k.newProcess();
             Vhost v = new Vhost(p, NET)) {
            v.setOwner();
            assertEquals(0, v.ioctl(VhostIoctl.VDPA_RESUME, MemorySegment.NULL));
        }
    }

    @Test
    void the61FamilyHasNoAttrSetAndAMaxattrOf22() {
        KernelProfile old = KernelProfiles.byName("6.1").orElseThrow();
        assertFalse(old.hasCommand(VdpaCommand.DEV_ATTR_SET.uapi()));
        assertEquals(22, old.netlink().maxAttr());
        assertEquals("6.12", KernelProfiles.firstWithCommand(VdpaCommand.DEV_ATTR_SET.uapi()).orElseThrow().version());
        assertEquals("6.12", KernelProfiles.firstWithIoctl(VhostIoctl.VDPA_RESUME.uapi()).orElseThrow().version());
        assertEquals("6.1", KernelProfiles.firstWithIoctl(VhostIoctl.VDPA_SUSPEND.uapi()).orElseThrow().version());
        assertEquals(37, KernelProfiles.defaultProfile().netlink().maxAttr());
    }
}
