package org.vdpactl.orchestra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;

import org.junit.jupiter.api.Test;
import org.vdpactl.fake.inside.FakeInside;
import org.vdpactl.fake.FakeKernel;
import org.vdpactl.fake.FakeProcess;
import org.vdpactl.fake.device.DeviceProfile;
import org.vdpactl.fake.device.ProfileCatalog;
import org.vdpactl.abi.KernelProfile;
import org.vdpactl.abi.KernelProfiles;
import org.vdpactl.fake.state.Inventory;
import org.vdpactl.time.VirtualClock;

/**
 * Rehearsals on devices without SUSPEND or RESUME fall back the way QEMU does (docs/rehearse.md):
 * reset instead of suspend, the ring state from guest memory, reset and restart instead of resume.
 */
class StopFallbackTest {

    /** vdpasim_net under another management-device name, so that only the devices of this test are made. */
    private static DeviceProfile plainSim() {
        DeviceProfile p = ProfileCatalog.load("vdpasim_net");
        return new DeviceProfile("plainsim", new DeviceProfile.Mgmt(null, "plainsim", p.mgmtdev().classes(),
                p.mgmtdev().maxSupportedVqs(), p.mgmtdev().maxVqPairs(), p.mgmtdev().supportedFeatures(),
                p.mgmtdev().provisionableAttributes(), 0, "free", null), p.device());
    }

    /**
     * The default kernel with a {@code struct vdpa_config_ops} that has no resume (a kernel such as 6.1), and no
     * suspend either unless asked: a device's driver cannot have an op its kernel lacks.
     */
    private static KernelProfile withoutResume(boolean suspend) {
        KernelProfile k = KernelProfiles.defaultProfile();
        List<String> ops = k.configOps().stream().filter(op -> !op.equals("resume") && (suspend || !op.equals("suspend"))).toList();
        return new KernelProfile("test", List.of(), "test", k.vhost(), ops, k.netlink(), k.drivers(), k.vduseClasses());
    }

    private static RehearsalResult rehearse(boolean suspend, boolean split, int iterations) {
        Inventory inv = new Inventory(List.of(new Inventory.Mgmt("plainsim", null, "plainsim", null)),
                List.of(new Inventory.Device("p0", "plainsim", "02:00:00:00:00:10", null, null, null, null, null),
                        new Inventory.Device("p1", "plainsim", "02:00:00:00:00:11", null, null, null, null, null)));
        try (FakeKernel k = FakeInside.inventory(FakeInside.profile(FakeKernel.builder().kernel(withoutResume(suspend)), plainSim()), inv).build();
             FakeProcess p = k.newProcess()) {
            List<DeviceTarget> all = List.of(new DeviceTarget("p0", "/dev/vhost-vdpa-0"), new DeviceTarget("p1", "/dev/vhost-vdpa-1"));
            RehearsalPlan.Builder b = split ? RehearsalPlan.builder(all.subList(0, 1)).destinations(all.subList(1, 2))
                    : RehearsalPlan.builder(all.subList(0, 1));
            return new Rehearsal(p, new VirtualClock()).run(b.iterations(iterations).build());
        }
    }

    @Test
    void withoutSuspendTheDeviceIsResetAndTheRingStateComesFromGuestMemory() {
        RehearsalResult r = rehearse(false, false, 1);
        assertTrue(r.completed(), String.valueOf(r.failure()));
        Timeline t = r.lastIteration();
        Map<Phase, SortedSet<String>> marks = PhaseFallbacks.of(t.spans());
        assertEquals(Set.of(StopFallback.RESET_INSTEAD_OF_SUSPEND), marks.get(Phase.SUSPEND));
        assertEquals(Set.of(StopFallback.RING_STATE_FROM_GUEST), marks.get(Phase.SAVE_STATE));
        assertFalse(t.spans().stream().anyMatch(s -> s.call().startsWith("VHOST_VDPA_SUSPEND")
                || s.call().startsWith("VHOST_VDPA_RESUME") || s.call().startsWith("VHOST_GET_VRING_BASE")),
                "no call the device lacks, and no GET_VRING_BASE of a reset device");
    }

    @Test
    void withoutResumeASuspendedSourceIsRestartedBetweenIterations() {
        RehearsalResult r = rehearse(true, true, 2);
        assertTrue(r.completed(), String.valueOf(r.failure()));
        Timeline first = r.iterations().getFirst();
        assertEquals(Set.of(StopFallback.RESTART_INSTEAD_OF_RESUME), PhaseFallbacks.of(first.spans()).get(Phase.RESTORE));
        assertTrue(first.spans().stream().anyMatch(s -> s.call().startsWith("VHOST_VDPA_SUSPEND")), "SUSPEND is still used");
        assertTrue(r.devices().stream().allMatch(d -> d.state() == DeviceState.RUNNING || d.state() == DeviceState.RESET),
                r.devices().toString());
    }

    @Test
    void withoutBatchedIotlbTheRehearsalRefusesBeforeTheWindow() {
        KernelProfile k612 = KernelProfiles.defaultProfile();
        KernelProfile.Vhost v = k612.vhost();
        // a kernel whose vhost-vdpa offers no IOTLB_BATCH: no fallback exists for the memory map
        KernelProfile noBatch = new KernelProfile("test", List.of(), "test", new KernelProfile.Vhost(v.ioctls(),
                List.of("VHOST_BACKEND_F_IOTLB_MSG_V2", "VHOST_BACKEND_F_IOTLB_ASID"), v.backendFeaturesAccepted(),
                v.suspendNeedsDriverOk(), v.vringNumChecksMax(), v.ringChangeNeedsStop(), v.groupAsidChecksGroup(),
                v.groupAsidBusyAfterDriverOk(), v.iotlbEntryLimit(), v.pinnedRuns()),
                k612.configOps(), k612.netlink(), k612.drivers(), k612.vduseClasses());
        try (FakeKernel k = FakeKernel.builder().kernel(noBatch).build(); FakeProcess p = k.newProcess()) {
            RehearsalPlan plan = RehearsalPlan.builder(List.of(new DeviceTarget("vdpa0", "/dev/vhost-vdpa-0"))).build();
            // a set-up failure is a PARTIAL result naming the call, every device reset (not an exception)
            RehearsalResult r = new Rehearsal(p, new VirtualClock()).run(plan);
            assertTrue(!r.completed(), "the rehearsal must not complete");
            String message = r.failure().message();
            assertTrue(message.contains("IOTLB_BATCH") && message.contains("no fallback"), message);
        }
    }
}
