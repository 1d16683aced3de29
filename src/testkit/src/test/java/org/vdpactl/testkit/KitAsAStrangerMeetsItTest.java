package org.vdpactl.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.vdpactl.fake.inside.FakeInside;
import org.vdpactl.abi.KernelProfile;
import org.vdpactl.fake.FakeKernel;
import org.vdpactl.fake.fault.FaultRule;
import org.vdpactl.fake.fault.FaultRuleException;
import org.vdpactl.mgmt.VdpaNetlink;
import org.vdpactl.sys.Errno;
import org.vdpactl.sys.Syscalls;
import org.vdpactl.time.VirtualClock;
import org.vdpactl.vhost.VhostException;
import org.vdpactl.vhost.VhostVdpaDevice;

/**
 * What a user of the kit gets wrong, and what the kit says then (issue 32, "the library as a stranger meets
 * it"): every mistake is refused with the reason and a pointer to the annotation, never run on a default and
 * passed. Each case is a small test class run through the JUnit platform, as in {@link VdpaKernelExtensionTest}.
 */
class KitAsAStrangerMeetsItTest {

    private static EngineExecutionResults run(Class<?> testClass) {
        return EngineTestKit.engine("junit-jupiter").selectors(selectClass(testClass)).execute();
    }

    /** Runs with system properties set, restoring them after. */
    private static EngineExecutionResults runWith(Class<?> testClass, String... keyValues) {
        return withProperties(() -> run(testClass), keyValues);
    }

    private static <T> T withProperties(Supplier<T> body, String... keyValues) {
        String[] before = new String[keyValues.length / 2];
        for (int i = 0; i < keyValues.length; i += 2) {
            before[i / 2] = System.getProperty(keyValues[i]);
            System.setProperty(keyValues[i], keyValues[i + 1]);
        }
        try {
            return body.get();
        } finally {
            for (int i = 0; i < keyValues.length; i += 2) {
                if (before[i / 2] == null) {
                    System.clearProperty(keyValues[i]);
                } else {
                    System.setProperty(keyValues[i], before[i / 2]);
                }
            }
        }
    }

    private static Throwable throwableOf(Event e) {
        return e.getPayload(TestExecutionResult.class).orElseThrow().getThrowable().orElseThrow();
    }

    /** The message of the one test of the class, which must have failed. */
    private static String failure(EngineExecutionResults r) {
        List<Event> failed = r.testEvents().failed().list();
        assertEquals(1, failed.size(), () -> "one failed test; events: " + r.testEvents().list());
        return throwableOf(failed.getFirst()).getMessage();
    }

    private static void assertContains(String message, String... parts) {
        for (String p : parts) {
            assertTrue(message.contains(p), () -> "expected \"" + p + "\" in: " + message);
        }
    }

    // ------------------------------------------------------------------ item 2: the backend's value

    @FakeKernelTest
    static class AnyTest {
        @Test
        void runs(KernelUnderTest k) {
            assertTrue(true);
        }
    }

    @Test
    void aMisspeltBackendIsRefusedInsteadOfRunningOnTheFake() {
        String m = failure(runWith(AnyTest.class, KernelFactory.BACKEND_PROPERTY, "kernal"));
        assertContains(m, "vdpactl.testkit.backend (or VDPACTL_TESTKIT_BACKEND) = \"kernal\" is not a backend", "\"fake\"", "\"kernel\"");
    }

    @Test
    void theFakeBackendNamedExplicitlyRuns() {
        runWith(AnyTest.class, KernelFactory.BACKEND_PROPERTY, "fake").testEvents().assertStatistics(s -> s.succeeded(1).failed(0));
    }

    // ------------------------------------------------------------------ item 3: the real kernel, required or not

    @Test
    void theKernelOptInFailsByDefaultWhenTheHostHasNoVdpa() {
        assumeFalse(Files.exists(Path.of("/sys/bus/vdpa")), "this host has vDPA: the opt-in would really run");
        String m = failure(runWith(AnyTest.class, KernelFactory.BACKEND_PROPERTY, "kernel"));
        assertContains(m, "has no vdpa netlink family", "vdpactl.testkit.requireKernel=false reports such tests as skipped");
    }

    @Test
    void requireKernelFalseReportsTheTestAsAbortedInstead() {
        assumeFalse(Files.exists(Path.of("/sys/bus/vdpa")), "this host has vDPA: the opt-in would really run");
        EngineExecutionResults r = runWith(AnyTest.class, KernelFactory.BACKEND_PROPERTY, "kernel",
                KernelFactory.REQUIRE_KERNEL_PROPERTY, "false");
        r.testEvents().assertStatistics(s -> s.started(1).aborted(1).succeeded(0).failed(0));
        assertContains(throwableOf(r.testEvents().aborted().list().getFirst()).getMessage(), "has no vdpa netlink family");
    }

    @Test
    void aRequireKernelValueOtherThanTrueOrFalseIsRefused() {
        String m = failure(runWith(AnyTest.class, KernelFactory.BACKEND_PROPERTY, "kernel",
                KernelFactory.REQUIRE_KERNEL_PROPERTY, "yes"));
        assertContains(m, "vdpactl.testkit.requireKernel (or VDPACTL_TESTKIT_REQUIRE_KERNEL) = \"yes\" is not true or false");
    }

    // ------------------------------------------------------------------ item 4: @Nested

    @FakeKernelTest(kernel = "6.1", devices = @Device(name = "outer0"))
    static class Outer {
        @Nested
        class Inner {
            @Test
            void getsTheEnclosingClassesKernel(KernelProfile profile, KernelUnderTest k) {
                assertEquals("6.1", profile.version());
                assertEquals(List.of("outer0"), k.devices());
            }
        }
    }

    @Test
    void aNestedClassRunsOnItsEnclosingClassesKernel() {
        EngineExecutionResults r = run(Outer.class);
        r.testEvents().assertStatistics(s -> s.started(1).succeeded(1).failed(0));
    }

    // ------------------------------------------------------------------ item 5: fault rules

    @FakeKernelTest(devices = @Device(name = "a"), faults = @Fault(device = "a", call = "VHOST_VDPA_SUSPEND", errno = "EFOO"))
    static class UnknownErrno {
        @Test
        void t(KernelUnderTest k) {
        }
    }

    @FakeKernelTest(devices = @Device(name = "a"), faults = @Fault(device = "a", call = "VHOST_VDPA_SUSPEND", occurrence = -1))
    static class NegativeOccurrence {
        @Test
        void t(KernelUnderTest k) {
        }
    }

    @FakeKernelTest(devices = @Device(name = "a"), faults = @Fault(device = "a", call = "VHOST_VDPA_SUSPNED"))
    static class MisspeltCall {
        @Test
        void t(KernelUnderTest k) {
        }
    }

    @FakeKernelTest(devices = @Device(name = "a"), faults = @Fault(device = "b", call = "VHOST_VDPA_SUSPEND"))
    static class UndeclaredDevice {
        @Test
        void t(KernelUnderTest k) {
        }
    }

    @FakeKernelTest(faults = @Fault(device = "mlx5-*", call = "VHOST_VDPA_SUSPEND"))
    static class GlobOnTheDefaultInventory {
        @Test
        void t(KernelUnderTest k) {
        }
    }

    @Test
    void faultRulesThatCouldNeverFireAreRefusedWithTheReason() {
        assertContains(failure(run(UnknownErrno.class)), "@FakeKernelTest on UnknownErrno", "@Fault(device = \"a\", call = \"VHOST_VDPA_SUSPEND\")",
                "errno = \"EFOO\" is not a Linux errno");
        assertContains(failure(run(NegativeOccurrence.class)), "occurrence -1 is negative");
        assertContains(failure(run(MisspeltCall.class)), "unknown call \"VHOST_VDPA_SUSPNED\" (the rule could never fire)");
        assertContains(failure(run(UndeclaredDevice.class)), "no device of the test matches \"b\" (present: a)");
        run(GlobOnTheDefaultInventory.class).testEvents().assertStatistics(s -> s.succeeded(1).failed(0));
    }

    @Test
    void aFaultRuleBuiltInCodeNamesItsProblem() {
        assertContains(assertThrows(FaultRuleException.class, () -> FaultRule.errnoAt("a", "VHOST_VDPA_SUSPEND", -1, Errno.EIO)).getMessage(),
                "invalid fault rule a/VHOST_VDPA_SUSPEND: occurrence -1 is negative");
        assertContains(assertThrows(FaultRuleException.class, () -> FaultRule.errnoAlways("a", "set_mapp", Errno.EIO)).getMessage(),
                "unknown call \"set_mapp\"");
        assertContains(assertThrows(FaultRuleException.class, () -> FaultRule.errnoAlways("a", "set_map", 4000)).getMessage(),
                "errno 4000 is not a Linux errno");
    }

    @FakeKernelTest(devices = @Device(name = "a"))
    static class DelayAddedInTheTest {
        @Test
        void t(FakeKernel kernel, VirtualClock clock, VhostVdpaDevice dev) {
            kernel.faults().addRule(FaultRule.delayAlways("a", "VHOST_GET_FEATURES", 40));
            long before = clock.nanoTime();
            dev.getFeatures();
            assertEquals(40_000_000L, clock.nanoTime() - before);
        }
    }

    @Test
    void theDocumentedRouteForADelayWorks() {
        run(DelayAddedInTheTest.class).testEvents().assertStatistics(s -> s.succeeded(1).failed(0));
    }

    // ------------------------------------------------------------------ item 6: devices and parameters

    @FakeKernelTest(devices = @Device(name = "a", mtu = 10))
    static class TinyMtu {
        @Test
        void t(KernelUnderTest k) {
        }
    }

    @FakeKernelTest(devices = @Device(name = "my dev"))
    static class NameWithASpace {
        @Test
        void t(KernelUnderTest k) {
        }
    }

    @FakeKernelTest(devices = @Device(name = "a", mgmtdev = "vdpasim_net", preset = "mlx5-612"))
    static class PresetOnASimulator {
        @Test
        void t(KernelUnderTest k) {
        }
    }

    @FakeKernelTest(devices = {@Device(name = "a"), @Device(name = "a", mgmtdev = "vdpasim_blk")})
    static class DuplicateName {
        @Test
        void t(KernelUnderTest k) {
        }
    }

    @FakeKernelTest(devices = @Device(name = "a"))
    static class DeviceNameOnSyscalls {
        @Test
        void t(@DeviceName("a") Syscalls sys) {
        }
    }

    @Test
    void deviceDeclarationsTheKernelWouldRefuseAreRefusedAtTheAnnotation() {
        assertContains(failure(run(TinyMtu.class)), "@FakeKernelTest on TinyMtu", "@Device(name = \"a\"): mtu = 10 is out of range (68 to 65535)");
        assertContains(failure(run(NameWithASpace.class)), "@Device(name = \"my dev\"): the name contains whitespace");
        assertContains(failure(run(PresetOnASimulator.class)), "preset = \"mlx5-612\" is for mlx5 devices; vdpasim_net has no latency presets");
        assertContains(failure(run(DuplicateName.class)), "@Device(name = \"a\") is declared twice");
        assertContains(failure(run(DeviceNameOnSyscalls.class)), "@DeviceName on a Syscalls parameter");
    }

    @Test
    void aMisconfiguredSpecUnderTheKernelOptInIsReportedAsTheSpecError() {
        String m = failure(runWith(TinyMtu.class, KernelFactory.BACKEND_PROPERTY, "kernel"));
        assertContains(m, "mtu = 10 is out of range");
        assertTrue(!m.contains("vdpa netlink family"), m);
    }

    // ------------------------------------------------------------------ item 7: RESUME on 6.1

    @FakeKernelTest(kernel = "6.1", devices = @Device(name = "a"))
    static class ResumeOnSixOne {
        @Test
        void t(VhostVdpaDevice dev) {
            dev.setOwner();
            VhostException e = assertThrows(VhostException.class, dev::resume);
            assertEquals(Errno.EFAULT, e.errno());
            assertTrue(e.hint() != null && e.hint().contains("this kernel predates VHOST_VDPA_RESUME"), e.hint());
        }
    }

    @Test
    void anOwnersResumeOnSixOneSaysTheKernelPredatesIt() {
        run(ResumeOnSixOne.class).testEvents().assertStatistics(s -> s.succeeded(1).failed(0));
    }

    // ------------------------------------------------------------------ item 8 and 13: mlx5 devices

    @FakeKernelTest(kernel = "6.1", devices = {@Device(name = "m0", mgmtdev = "mlx5"), @Device(name = "m1", mgmtdev = "mlx5", preset = "mlx5-612")})
    static class Mlx5OnSixOne {
        @Test
        void t(FakeKernel kernel) {
            assertEquals("mlx5-61", FakeInside.device(kernel, "m0").orElseThrow().mgmtDevice().preset(), "the release's own mlx5_vdpa");
            assertEquals("mlx5-612", FakeInside.device(kernel, "m1").orElseThrow().mgmtDevice().preset(), "as declared");
        }
    }

    @Test
    void anMlx5DeviceWithoutAPresetGetsTheReleasesDriverAsTheDefaultInventoryDoes() {
        run(Mlx5OnSixOne.class).testEvents().assertStatistics(s -> s.succeeded(1).failed(0));
    }

    @Test
    void mlx5DevicesGetValidPciFunctionsInDeclarationOrder() {
        assertEquals(List.of("0000:08:00.2", "0000:08:00.3", "0000:08:00.7", "0000:08:01.0", "0000:08:01.1"),
                List.of(0, 1, 5, 6, 7).stream().map(KernelFactory::mlx5Function).toList());
    }

    @FakeKernelTest(devices = {@Device(name = "s"), @Device(name = "m0", mgmtdev = "mlx5"), @Device(name = "m1", mgmtdev = "mlx5")})
    static class Mlx5Handles {
        @Test
        void t(VdpaNetlink vdpa) {
            assertEquals(List.of("s=vdpasim_net", "m0=pci/0000:08:00.2", "m1=pci/0000:08:00.3"),
                    vdpa.devices().stream().map(d -> d.name() + "=" + d.mgmtHandle()).toList());
        }
    }

    @Test
    void theManagementHandlesOfDeclaredDevicesAreTheDocumentedOnes() {
        run(Mlx5Handles.class).testEvents().assertStatistics(s -> s.succeeded(1).failed(0));
    }

    // ------------------------------------------------------------------ item 10: leak messages

    @FakeKernelTest(devices = @Device(name = "a"))
    static class LeaksANodeAndASocket {
        @Test
        void t(KernelUnderTest k) {
            VhostVdpaDevice.open(k.syscalls(), "/dev/vhost-vdpa-0");
            VdpaNetlink.open(k.syscalls());
        }
    }

    @Test
    void aLeakNamesTheFileByPathOrKind() {
        String m = failure(run(LeaksANodeAndASocket.class));
        assertContains(m, "the test left 2 file descriptor(s) open:", "(/dev/vhost-vdpa-0) of fake process",
                "(netlink socket (NETLINK_GENERIC)) of fake process");
        assertTrue(!Pattern.compile("\\w+File@[0-9a-f]+").matcher(m).find(), m); // not VhostVdpaFile@186978a6
    }
}
