package org.vdpactl.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.vdpactl.abi.KernelProfile;
import org.vdpactl.fake.FakeKernel;
import org.vdpactl.mgmt.VdpaNetlink;
import org.vdpactl.sys.Errno;
import org.vdpactl.sys.Syscalls;
import org.vdpactl.time.VirtualClock;
import org.vdpactl.vhost.VhostException;
import org.vdpactl.vhost.VhostVdpaDevice;

/**
 * The test kit as a user meets it: each case below is a small test class run through the JUnit platform
 * (EngineTestKit), and this test checks what the platform reported. The cases are nested classes, which
 * Surefire does not run on their own.
 */
class VdpaKernelExtensionTest {

    private static EngineExecutionResults run(Class<?> testClass) {
        return EngineTestKit.engine("junit-jupiter").selectors(selectClass(testClass)).execute();
    }

    /** Asserts that every test of the class ran and passed, naming the failures when not. */
    private static void assertPassed(EngineExecutionResults r, int tests) {
        List<String> failures = r.testEvents().failed().list().stream()
                .map(e -> e.getTestDescriptor().getDisplayName() + ": " + e.getPayload(TestExecutionResult.class)
                        .flatMap(TestExecutionResult::getThrowable).map(Throwable::toString).orElse("?"))
                .toList();
        assertEquals(List.of(), failures);
        r.testEvents().assertStatistics(s -> s.started(tests).succeeded(tests).failed(0));
    }

    private static Throwable failureOf(EngineExecutionResults r) {
        List<Event> failed = r.testEvents().failed().list();
        assertEquals(1, failed.size(), "one failed test");
        return failed.getFirst().getPayload(TestExecutionResult.class).orElseThrow()
                .getThrowable().orElseThrow();
    }

    // ------------------------------------------------------------------ the kernel a test gets

    @FakeKernelTest(kernel = "6.1")
    static class OnSixOne {
        @Test
        void speaksTheRequestedRelease(KernelProfile profile, FakeKernel kernel, VirtualClock clock) {
            assertEquals("6.1", profile.version());
            assertEquals("6.1", kernel.kernelProfile().version());
            assertEquals(0, clock.nanoTime() - clock.nanoTime());
        }

        @Test
        @FakeKernelTest(kernel = "newest")
        void aMethodAnnotationWins(KernelProfile profile) {
            assertEquals("7.2", profile.version());
        }
    }

    @Test
    void theReleaseComesFromTheClassAndTheMethodAnnotation() {
        assertPassed(run(OnSixOne.class), 2);
    }

    @FakeKernelTest(devices = {@Device(name = "edge0", mgmtdev = "mlx5", preset = "mlx5-pre612", maxVqPairs = 4),
            @Device(name = "sim0", mgmtdev = "vdpasim_net", mac = "02:00:00:00:00:42")})
    static class WithDevices {
        @Test
        void theDevicesAreTheDeclaredOnes(VdpaNetlink vdpa, KernelUnderTest k) {
            assertEquals(List.of("edge0", "sim0"), vdpa.devices().stream().map(d -> d.name()).sorted().toList());
            assertEquals(List.of("edge0", "sim0"), k.devices());
        }

        @Test
        void aDeviceParameterIsOpenedAndClosedByTheKit(@DeviceName("sim0") VhostVdpaDevice sim, VhostVdpaDevice first) {
            assertEquals(1, sim.getDeviceId(), "virtio-net");
            assertEquals(1, first.getDeviceId(), "edge0, the first device, is a net device too");
        }
    }

    @Test
    void declaredDevicesReplaceTheDefaultInventoryAndHandlesAreClosedByTheKit() {
        assertPassed(run(WithDevices.class), 2);
    }

    @FakeKernelTest(devices = @Device(name = "vdpa0"), faults = @Fault(device = "vdpa0", call = "VHOST_GET_FEATURES", errno = "EIO"))
    static class WithAFault {
        @Test
        void theRuleFires(VhostVdpaDevice dev) {
            VhostException e = assertThrows(VhostException.class, dev::getFeatures);
            assertEquals(Errno.EIO, e.errno());
        }
    }

    @Test
    void aFaultRuleOfTheAnnotationFires() {
        assertPassed(run(WithAFault.class), 1);
    }

    static class Programmatic {
        @RegisterExtension
        static final VdpaKernelExtension KERNEL = VdpaKernelExtension.builder().kernel("7.2").device("m0", "mlx5").build();

        @Test
        void theBuiltSpecIsUsed(KernelProfile profile, VdpaNetlink vdpa) {
            assertEquals("7.2", profile.version());
            assertEquals("m0", vdpa.devices().getFirst().name());
        }
    }

    @Test
    void theBuilderConfiguresARegisteredExtension() {
        assertPassed(run(Programmatic.class), 1);
    }

    // ------------------------------------------------------------------ leaks

    @FakeKernelTest
    static class Leaking {
        @Test
        void opensAnEventFdAndForgetsIt(Syscalls sys) {
            sys.eventfd(0, 0);
        }
    }

    @Test
    void aLeakedFdFailsTheTestAndNamesWhereItWasOpened() {
        Throwable t = failureOf(run(Leaking.class));
        String m = t.getMessage();
        assertTrue(m.startsWith("the test left 1 file descriptor(s) open:"), m);
        assertTrue(m.contains("VdpaKernelExtensionTest$Leaking.opensAnEventFdAndForgetsIt(VdpaKernelExtensionTest.java:"), m);
    }

    @FakeKernelTest
    static class ClosesWhatItOpens {
        @Test
        void opensAndCloses(Syscalls sys) {
            sys.close(sys.eventfd(0, 0));
        }
    }

    @Test
    void aTestThatClosesItsFdsPasses() {
        assertPassed(run(ClosesWhatItOpens.class), 1);
    }

    // ------------------------------------------------------------------ the real kernel, opted in

    @FakeKernelTest
    static class OnTheRealKernel {
        @Test
        void runs(KernelUnderTest k) {
            assertTrue(k.isReal());
        }
    }

    @Test
    void theRealKernelWithoutVdpaAbortsTheTestWithTheReason() {
        assumeFalse(Files.exists(Path.of("/sys/bus/vdpa")), "this host has vDPA: the opt-in would really run");
        String before = System.getProperty(KernelFactory.BACKEND_PROPERTY);
        System.setProperty(KernelFactory.BACKEND_PROPERTY, "kernel");
        System.setProperty(KernelFactory.REQUIRE_KERNEL_PROPERTY, "false"); // the default fails instead (KitAsAStrangerMeetsItTest)
        try {
            EngineExecutionResults r = run(OnTheRealKernel.class);
            r.testEvents().assertStatistics(s -> s.started(1).aborted(1).succeeded(0).failed(0));
            Throwable t = r.testEvents().aborted().list().getFirst()
                    .getPayload(TestExecutionResult.class).orElseThrow().getThrowable().orElseThrow();
            assertTrue(t.getMessage().contains("has no vdpa netlink family"), t.getMessage());
        } finally {
            System.clearProperty(KernelFactory.REQUIRE_KERNEL_PROPERTY);
            if (before == null) {
                System.clearProperty(KernelFactory.BACKEND_PROPERTY);
            } else {
                System.setProperty(KernelFactory.BACKEND_PROPERTY, before);
            }
        }
        assertFalse(KernelFactory.realKernelRequested());
    }
}
