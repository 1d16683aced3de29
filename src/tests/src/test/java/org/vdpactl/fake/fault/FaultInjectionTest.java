package org.vdpactl.fake.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.vdpactl.fake.vhost.Vhost.errno;

import java.lang.foreign.MemorySegment;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.vdpactl.fake.inside.FakeInside;
import org.vdpactl.fake.FakeKernel;
import org.vdpactl.fake.FakeProcess;
import org.vdpactl.fake.FakeSyscallException;
import org.vdpactl.fake.vhost.Vhost;
import org.vdpactl.fake.vhost.VhostVdpaDriver;
import org.vdpactl.fake.errno.KernelError;
import org.vdpactl.ffi.gen.libc.libc_h;
import org.vdpactl.sys.Errno;
import org.vdpactl.time.VirtualClock;
import org.vdpactl.vhost.VhostIoctl;

/** Fault rules: the JSON format and what each action does at the fake's hooks. */
class FaultInjectionTest {
    private static final long MS = 1_000_000;

    @Test
    void parsesTheDocumentedFormat() {
        List<FaultRule> rules = FaultRules.parse("""
                { "rules": [
                  { "device": "mlx5-0", "call": "VHOST_VDPA_SUSPEND", "occurrence": 2, "errno": "EIO" },
                  { "call": "set_map", "occurrence": "every", "delayMs": 40 },
                  { "device": "mlx5-*", "call": "resume", "action": "firmware-timeout", "timeoutMs": 60000 },
                  { "call": "VDPA_CMD_DEV_NEW", "occurrence": 3, "count": 2, "errno": 12, "comment": "ENOMEM" }
                ] }""");
        assertEquals(new FaultRule("mlx5-0", "VHOST_VDPA_SUSPEND", 2, 1, Errno.EIO, 0, 0), rules.get(0));
        assertEquals(new FaultRule("*", "set_map", 0, 1, 0, 40 * MS, 0), rules.get(1));
        assertEquals(new FaultRule("mlx5-*", "resume", 0, 1, 0, 0, 60_000 * MS), rules.get(2));
        assertEquals(new FaultRule("*", "VDPA_CMD_DEV_NEW", 3, 2, Errno.ENOMEM, 0, 0), rules.get(3));
        assertEquals(1, FaultRules.parse("[{\"call\": \"open\", \"errno\": \"ENXIO\"}]").size());
    }

    /** Issue 36 item 6: snake_case keys like vdpactl's output; the camelCase of earlier releases still reads; not both. */
    @Test
    void snakeCaseKeysAndTheEarlierCamelCase() {
        assertEquals(List.of(new FaultRule("*", "set_map", 0, 1, 0, 40 * MS, 0), new FaultRule("*", "resume", 0, 1, 0, 0, 5 * MS)),
                FaultRules.parse("[{\"call\": \"set_map\", \"delay_ms\": 40},"
                        + " {\"call\": \"resume\", \"action\": \"firmware-timeout\", \"timeout_ms\": 5}]"));
        assertEquals(FaultRules.parse("[{\"call\": \"set_map\", \"delay_ms\": 40}]"), FaultRules.parse("[{\"call\": \"set_map\", \"delayMs\": 40}]"));
        FaultRuleException e = assertThrows(FaultRuleException.class,
                () -> FaultRules.parse("[{\"call\": \"set_map\", \"delayMs\": 40, \"delay_ms\": 50}]"));
        assertEquals("rule #1: both \"delayMs\" and \"delay_ms\" given (\"delayMs\" is the earlier spelling of \"delay_ms\")", e.getMessage());
    }

    /** Issue 35 item 7: "link": "down" or "up" (with "action": "link" optional); any other value refused in one line. */
    @Test
    void linkRulesAndTheirRefusals() {
        assertEquals(List.of(FaultRule.linkAt("mlx5-0", "VHOST_VDPA_SUSPEND", 2, false),
                        new FaultRule("*", "resume", 0, 1, 0, 5 * MS, 0, FaultRule.Link.UP)),
                FaultRules.parse("[{\"device\": \"mlx5-0\", \"call\": \"VHOST_VDPA_SUSPEND\", \"occurrence\": 2, \"link\": \"down\"},"
                        + " {\"call\": \"resume\", \"action\": \"link\", \"link\": \"up\", \"delay_ms\": 5}]"));
        assertEquals(FaultRule.Link.NONE, FaultRule.errnoAt("mlx5-0", "suspend", 1, Errno.EIO).link(), "the earlier form");
        String[][] bad = {
            {"[{\"call\": \"suspend\", \"link\": \"sideways\"}]", "rule #1: \"link\" must be \"down\" or \"up\", not \"sideways\""},
            {"[{\"call\": \"suspend\", \"action\": \"link\"}]", "rule #1: action \"link\" needs \"link\": \"down\" or \"up\""},
            {"[{\"call\": \"suspend\", \"link\": true}]", "rule #1: \"link\" must be a string"}};
        for (String[] b : bad) {
            assertEquals(b[1], assertThrows(FaultRuleException.class, () -> FaultRules.parse(b[0])).getMessage(), b[0]);
        }
    }

    /** A link rule firing on a device whose driver has no PCI function (vdpa_sim) counts and changes nothing. */
    @Test
    void aLinkRuleOnADeviceWithoutAFunctionChangesNothing() {
        try (FakeKernel k = FakeKernel.builder().fault(FaultRule.linkAt("vdpa0", "VHOST_GET_FEATURES", 1, false)).build();
             FakeProcess p = k.newProcess(); Vhost v = new Vhost(p, "/dev/vhost-vdpa-0")) {
            v.getU64(VhostIoctl.GET_FEATURES);
            assertEquals(1, k.faults().fired().size());
            // a software device's function state would make the saved state unreadable (a function on vdpasim_net)
            assertTrue(FakeInside.inventory(k).mgmtdevs().stream().allMatch(m -> m.function() == null),
                    FakeInside.inventory(k).mgmtdevs().toString());
        }
    }

    @Test
    void rejectsBadRulesWithOneLineMessages() {
        String[] bad = {
            "not json", "{}", "[{\"errno\": \"EIO\"}]", "[{\"call\": \"x\", \"errno\": \"ENOPE\"}]",
            "[{\"call\": \"x\", \"errno\": \"EIO\", \"occurence\": 1}]", "[{\"call\": \"x\", \"occurrence\": 0, \"errno\": \"EIO\"}]",
            "[{\"call\": \"x\"}]", "[{\"call\": \"x\", \"action\": \"explode\"}]", "[{\"call\": \"x\", \"delayMs\": -1}]",
            "[{\"call\": \"x\", \"timeoutMs\": 5}]"};
        for (String json : bad) {
            FaultRuleException e = assertThrows(FaultRuleException.class, () -> FaultRules.parse(json), json);
            assertFalse(e.getMessage().contains("\n"), e.getMessage());
        }
    }

    @Test
    void nthOccurrenceCountAndGlobs() {
        VirtualClock clock = new VirtualClock();
        FaultInjector f = new FaultInjector(clock, List.of(new FaultRule("mlx5-*", "suspend", 2, 2, Errno.EIO, 0, 0)));
        f.hit("mlx5-0", "suspend", null);
        assertEquals(Errno.EIO, assertThrows(KernelError.class, () -> f.hit("mlx5-1", "suspend", null)).errno());
        assertEquals(Errno.EIO, assertThrows(KernelError.class, () -> f.hit("mlx5-0", "suspend", null)).errno());
        f.hit("mlx5-0", "suspend", null);
        f.hit("vdpa0", "suspend", null);
        f.hit("mlx5-0", "resume", null);
        assertEquals(2, f.fired().size());
        assertEquals(3, f.fired().get(1).occurrence());
    }

    @Test
    void errnoOnAnIoctlOfOneDevice() {
        try (FakeKernel k = FakeKernel.builder().fault(FaultRule.errnoAt("mlx5-0", "VHOST_VDPA_SUSPEND", 2, Errno.EIO)).build();
             FakeProcess p = k.newProcess(); Vhost m0 = new Vhost(p, "/dev/vhost-vdpa-2"); Vhost m1 = new Vhost(p, "/dev/vhost-vdpa-3")) {
            m0.ioctl(VhostIoctl.VDPA_SUSPEND, MemorySegment.NULL);
            m1.ioctl(VhostIoctl.VDPA_SUSPEND, MemorySegment.NULL);
            m1.ioctl(VhostIoctl.VDPA_SUSPEND, MemorySegment.NULL);
            assertEquals(Errno.EIO, errno(() -> m0.ioctl(VhostIoctl.VDPA_SUSPEND, MemorySegment.NULL)));
            m0.ioctl(VhostIoctl.VDPA_SUSPEND, MemorySegment.NULL);
        }
    }

    @Test
    void delaysAndFirmwareTimeoutsSpendDeviceTime() {
        VirtualClock clock = new VirtualClock();
        try (FakeKernel k = FakeKernel.builder().clock(clock)
                .fault(FaultRule.delayAlways("vdpa0", "set_status", 40))
                .fault(FaultRule.firmwareTimeoutAt("vdpa0", "suspend", 1, 60_000)).build();
             FakeProcess p = k.newProcess(); Vhost v = new Vhost(p, "/dev/vhost-vdpa-0")) {
            long t0 = clock.nanoTime();
            v.setStatus(0xF);
            assertEquals(40 * MS, clock.nanoTime() - t0);
            FakeSyscallException e = assertThrows(FakeSyscallException.class,
                    () -> v.ioctl(VhostIoctl.VDPA_SUSPEND, MemorySegment.NULL));
            assertEquals(Errno.ETIMEDOUT, e.errno());
            assertEquals((40 + 60_000) * MS, clock.nanoTime() - t0);
            assertFalse(VhostVdpaDriver.of(k).vhost(FakeInside.device(k, "vdpa0").orElseThrow()).suspended());
            v.ioctl(VhostIoctl.VDPA_SUSPEND, MemorySegment.NULL);
            assertEquals(1, FakeInside.device(k, "vdpa0").orElseThrow().counters().ops().get("suspend").failures());
        }
    }

    @Test
    void driverOpFailuresSurfaceAsTheKernelDoes() {
        try (FakeKernel k = FakeKernel.builder()
                .fault(FaultRule.errnoAlways("vdpa0", "set_status", Errno.EIO))
                .fault(FaultRule.errnoAt("vdpa0", "set_map", 2, Errno.ENOMEM))
                .fault(FaultRule.errnoAt("vdpa0", "set_map", 3, Errno.ENOMEM)).build();
             FakeProcess p = k.newProcess(); Vhost v = new Vhost(p, "/dev/vhost-vdpa-0")) {
            v.setStatus(1);
            assertEquals(0x80, v.status(), "a failed set_status marks the device FAILED; the ioctl succeeds");
            v.setOwner();
            int memfd = p.memfdCreate("g", 0);
            p.ftruncate(memfd, 8192);
            MemorySegment g = p.mmap(8192, libc_h.PROT_READ() | libc_h.PROT_WRITE(), libc_h.MAP_SHARED(), memfd, 0);
            assertEquals(72, v.iotlb(0, Vhost.UPDATE, 0, 4096, g.address()));
            FakeSyscallException e = assertThrows(FakeSyscallException.class,
                    () -> v.iotlb(0, Vhost.UPDATE, 4096, 4096, g.address() + 4096));
            assertEquals(Errno.EFAULT, e.errno());
            assertTrue(e.reason().contains("ENOMEM"), e.reason());
            assertEquals(1, VhostVdpaDriver.of(k).vhost(FakeInside.device(k, "vdpa0").orElseThrow()).iotlbEntries(0).size(), "all-or-nothing");
            v.iotlb(0, Vhost.BATCH_BEGIN, 0, 0, 0);
            v.iotlb(0, Vhost.UPDATE, 4096, 4096, g.address() + 4096);
            assertEquals(72, v.iotlb(0, Vhost.BATCH_END, 0, 0, 0), "the kernel ignores set_map's result at BATCH_END");
        }
    }

    /**
     * vhost_vdpa_process_iotlb_msg (6.1, 6.12 and 7.2 alike) calls set_map at BATCH_END and drops its
     * return value, while an unbatched UPDATE's set_map failure fails the write (EFAULT): the same
     * injected fault is an error in one place and invisible to userspace in the other, and the
     * fake records it as fired in both.
     */
    @Test
    void aSetMapFaultAtBatchEndFiresButTheWriteSucceeds() {
        try (FakeKernel k = FakeKernel.builder().fault(FaultRule.errnoAt("vdpa0", "set_map", 1, Errno.ENOMEM))
                        .fault(FaultRule.errnoAt("vdpa0", "set_map", 2, Errno.ENOMEM)).build();
             FakeProcess p = k.newProcess(); Vhost v = new Vhost(p, "/dev/vhost-vdpa-0")) {
            v.setOwner();
            int memfd = p.memfdCreate("g", 0);
            p.ftruncate(memfd, 8192);
            MemorySegment g = p.mmap(8192, libc_h.PROT_READ() | libc_h.PROT_WRITE(), libc_h.MAP_SHARED(), memfd, 0);
            v.iotlb(0, Vhost.BATCH_BEGIN, 0, 0, 0);
            assertEquals(72, v.iotlb(0, Vhost.UPDATE, 0, 4096, g.address()), "inside a batch set_map is not called");
            assertEquals(List.of(), k.faults().fired(), "nothing fired before BATCH_END");
            assertEquals(72, v.iotlb(0, Vhost.BATCH_END, 0, 0, 0), "set_map's result is ignored at BATCH_END");
            assertEquals(1, k.faults().fired().size(), "the fault fired at BATCH_END");
            assertEquals("set_map", k.faults().fired().get(0).call());
            assertEquals(1, VhostVdpaDriver.of(k).vhost(FakeInside.device(k, "vdpa0").orElseThrow()).iotlbEntries(0).size(), "vhost keeps the mapping");
            // the same fault on an unbatched UPDATE is the write's failure
            FakeSyscallException e = assertThrows(FakeSyscallException.class,
                    () -> v.iotlb(0, Vhost.UPDATE, 4096, 4096, g.address() + 4096));
            assertEquals(Errno.EFAULT, e.errno());
            assertEquals(2, k.faults().fired().size());
        }
    }

    @Test
    void openAndWriteHooks() {
        try (FakeKernel k = FakeKernel.builder()
                .fault(FaultRule.errnoAt("vdpa1", "open", 1, Errno.ENOMEM))
                .fault(FaultRule.errnoAt("vdpa1", "write", 1, Errno.EIO)).build();
             FakeProcess p = k.newProcess()) {
            assertEquals(Errno.ENOMEM, errno(() -> p.open("/dev/vhost-vdpa-1", libc_h.O_RDWR())));
            assertFalse(FakeInside.device(k, "vdpa1").orElseThrow().node().isOpen());
            try (Vhost b = new Vhost(p, "/dev/vhost-vdpa-1")) {
                assertEquals(Errno.EIO, errno(() -> b.iotlb(0, Vhost.BATCH_BEGIN, 0, 0, 0)));
                b.setOwner();
                assertEquals(72, b.iotlb(0, Vhost.BATCH_BEGIN, 0, 0, 0));
            }
        }
    }
}
