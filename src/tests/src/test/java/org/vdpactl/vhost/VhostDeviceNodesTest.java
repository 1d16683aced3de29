package org.vdpactl.vhost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.vdpactl.fake.FakeProcess;
import org.vdpactl.ffi.gen.libc.libc_h;
import org.vdpactl.sim.SimulatedHost;
import org.vdpactl.sys.FileStat;
import org.vdpactl.time.VirtualClock;

/** Node checks against a sysfs/procfs laid out as Linux 6.12 lays it out (seen in the lane VM). */
class VhostDeviceNodesTest {
    private final StubSyscalls sys = new StubSyscalls();

    VhostDeviceNodesTest() {
        sys.stats.put("/dev/vhost-vdpa-0", new FileStat(FileStat.Type.CHAR_DEVICE, 0600, 0, 0, 246, 0));
        sys.stats.put("/dev/vhost-vdpa-1", new FileStat(FileStat.Type.CHAR_DEVICE, 0600, 0, 0, 246, 1));
        sys.stats.put("/dev/null", new FileStat(FileStat.Type.CHAR_DEVICE, 0666, 0, 0, 1, 3));
        sys.stats.put("/dev/ttyS9", new FileStat(FileStat.Type.CHAR_DEVICE, 0666, 0, 0, 4, 73));
        sys.stats.put("/tmp/file", new FileStat(FileStat.Type.REGULAR, 0644, 0, 0, 0, 0));
        sys.stats.put("/tmp/vdpa-copy", new FileStat(FileStat.Type.CHAR_DEVICE, 0600, 0, 0, 246, 1));
        sys.files.put("/proc/devices", "Character devices:\n  1 mem\n  4 /dev/vc/0\n  4 tty\n246 vhost-vdpa\n\nBlock devices:\n"
                + "  7 loop\n246 not-a-char\n");
        sys.dirs.put("/sys/bus/vdpa/devices", List.of("vdpa0", "vdpa1", "vdpa2", "vdpa3"));
        sys.dirs.put("/sys/bus/vdpa/devices/vdpa0", List.of("driver", "driver_override", "power", "subsystem", "uevent", "vhost-vdpa-0"));
        sys.files.put("/sys/bus/vdpa/devices/vdpa0/vhost-vdpa-0/dev", "246:0\n");
        sys.dirs.put("/sys/bus/vdpa/devices/vdpa1", List.of("driver", "vhost-vdpa-1"));
        sys.files.put("/sys/bus/vdpa/devices/vdpa1/vhost-vdpa-1/dev", "246:1\n");
        sys.dirs.put("/sys/bus/vdpa/devices/vdpa2", List.of("driver", "virtio2"));
        sys.dirs.put("/sys/bus/vdpa/devices/vdpa3", List.of("driver", "vhost-vdpa-0"));
        sys.files.put("/sys/bus/vdpa/devices/vdpa3/vhost-vdpa-0/dev", "246:5\n");
        sys.dirs.put("/sys/bus/vdpa/drivers", List.of("vhost_vdpa", "virtio_vdpa"));
        sys.dirs.put("/sys/bus/vdpa/drivers/vhost_vdpa", List.of("bind", "unbind", "vdpa0", "vdpa1", "vdpa3"));
        sys.dirs.put("/sys/bus/vdpa/drivers/virtio_vdpa", List.of("bind", "unbind", "vdpa2"));
    }

    @Test
    void aNameLeadsToItsBusEntryAndBack() {
        assertEquals(Optional.of(new VhostDeviceNodes.BusEntry("vdpa1", "/dev/vhost-vdpa-1", "246:1")),
                VhostDeviceNodes.busEntry(sys, "vdpa1"));
        assertEquals(Optional.of("vdpa1"), VhostDeviceNodes.vdpaNameOf(sys, "/dev/vhost-vdpa-1"));
        assertEquals(Optional.of("vdpa1"), VhostDeviceNodes.vdpaNameOf(sys, "vhost-vdpa-1"));
        assertEquals(Optional.empty(), VhostDeviceNodes.vdpaNameOf(sys, "/dev/vhost-vdpa-9"));
        assertEquals(Optional.of("vhost_vdpa"), VhostDeviceNodes.driver(sys, "vdpa0"));
        assertEquals(Optional.of("virtio_vdpa"), VhostDeviceNodes.driver(sys, "vdpa2"));
        assertEquals(Optional.empty(), VhostDeviceNodes.driver(sys, "vdpa7"));
        assertEquals(List.of("vdpa0", "vdpa1", "vdpa2", "vdpa3"), VhostDeviceNodes.vdpaDevices(sys));
    }

    @Test
    void aDeviceOnVirtioVdpaOrNoDeviceHasNoBusEntry() {
        assertEquals(Optional.empty(), VhostDeviceNodes.busEntry(sys, "vdpa2"), "bound to virtio_vdpa");
        assertEquals(Optional.empty(), VhostDeviceNodes.busEntry(sys, "vdpa9"), "no such device");
        sys.dirs.put("/sys/bus/vdpa/devices/vdpa4", List.of("driver", "vhost-vdpa-4"));
        assertEquals(Optional.of(new VhostDeviceNodes.BusEntry("vdpa4", "/dev/vhost-vdpa-4", null)),
                VhostDeviceNodes.busEntry(sys, "vdpa4"), "sysfs without a dev attribute");
    }

    @Test
    void namesCannotEscapeSysfs() {
        assertThrows(IllegalArgumentException.class, () -> VhostDeviceNodes.busEntry(sys, "../../../etc"));
        assertThrows(IllegalArgumentException.class, () -> VhostDeviceNodes.busEntry(sys, ".."));
        assertThrows(IllegalArgumentException.class, () -> VhostDeviceNodes.driver(sys, ".."));
        VhostNodeException e = assertThrows(VhostNodeException.class, () -> VhostDeviceNodes.resolve(sys, ".."));
        assertTrue(e.getMessage().contains("not a vDPA device name"), e.getMessage());
    }

    @Test
    void withoutTheVdpaBusThereAreNoDevices() {
        StubSyscalls bare = new StubSyscalls();
        assertEquals(List.of(), VhostDeviceNodes.vdpaDevices(bare));
        assertEquals(Optional.empty(), VhostDeviceNodes.busEntry(bare, "vdpa0"));
        assertEquals(List.of(), VhostDeviceNodes.listNodes(bare));
        assertEquals(Optional.empty(), VhostDeviceNodes.driver(bare, "vdpa0"));
    }

    @Test
    void acceptsARealNodeAndResolvesNames() {
        assertEquals(new VhostDeviceNodes.Node("/dev/vhost-vdpa-0", "vhost-vdpa-0", 246, 0),
                VhostDeviceNodes.check(sys, "/dev/vhost-vdpa-0"));
        assertEquals("/dev/vhost-vdpa-1", VhostDeviceNodes.resolve(sys, "vdpa1").path());
        assertEquals("/dev/vhost-vdpa-1", VhostDeviceNodes.resolve(sys, "vhost-vdpa-1").path());
        assertEquals("vhost-vdpa-1", VhostDeviceNodes.check(sys, "/tmp/vdpa-copy").sysName(), "named after the minor");
        assertEquals(List.of("/dev/vhost-vdpa-0", "/dev/vhost-vdpa-1", "/dev/vhost-vdpa-0"), VhostDeviceNodes.listNodes(sys));
    }

    @Test
    void refusesWhatIsNotAVhostVdpaCharDevice() {
        assertTrue(assertThrows(VhostNodeException.class, () -> VhostDeviceNodes.check(sys, "/tmp/file")).getMessage()
                .contains("not a character device (regular)"));
        VhostNodeException e = assertThrows(VhostNodeException.class, () -> VhostDeviceNodes.check(sys, "/dev/null"));
        assertTrue(e.getMessage().contains("1:3 is not a vhost-vdpa device (major 1 is mem)"), e.getMessage());
        assertTrue(assertThrows(VhostNodeException.class, () -> VhostDeviceNodes.check(sys, "/dev/vhost-vdpa-9")).getMessage()
                .contains("ENOENT"));
        sys.stats.put("/dev/weird", new FileStat(FileStat.Type.CHAR_DEVICE, 0600, 0, 0, 300, 0));
        assertTrue(assertThrows(VhostNodeException.class, () -> VhostDeviceNodes.check(sys, "/dev/weird")).getMessage()
                .contains("major 300 is not registered"));
    }

    @Test
    void aNodeWhoseNumberDisagreesWithSysfsIsRefused() {
        VhostNodeException e = assertThrows(VhostNodeException.class, () -> VhostDeviceNodes.resolve(sys, "vdpa3"));
        assertTrue(e.getMessage().contains("dev says 246:5"), e.getMessage());
    }

    @Test
    void explainsUnboundUnknownDevicesAndAMissingModule() {
        assertTrue(assertThrows(VhostNodeException.class, () -> VhostDeviceNodes.resolve(sys, "vdpa2")).getMessage()
                .contains("not bound to the vhost_vdpa driver"));
        VhostNodeException e = assertThrows(VhostNodeException.class, () -> VhostDeviceNodes.resolve(sys, "vdpa7"));
        assertTrue(e.getMessage().contains("existing: vdpa0, vdpa1, vdpa2, vdpa3"), e.getMessage());
        sys.files.put("/proc/devices", "Character devices:\n  1 mem\n\nBlock devices:\n");
        assertTrue(assertThrows(VhostNodeException.class, () -> VhostDeviceNodes.check(sys, "/dev/vhost-vdpa-0")).getMessage()
                .contains("modprobe vhost_vdpa"));
    }

    @Test
    void aNodeIsHeldWhileAnotherFileDescriptionHasItOpen() {
        try (SimulatedHost host = SimulatedHost.mlx5(1, 1, "mlx5-612", new VirtualClock(), List.of());
                FakeProcess other = host.kernel().newProcess()) {
            String node = host.devices().get(0).path();
            assertFalse(VhostDeviceNodes.heldOpen(host.process(), node), "free");
            assertFalse(VhostDeviceNodes.heldOpen(host.process(), node), "the probe closed its own fd");
            int fd = other.open(node, libc_h.O_RDWR());
            assertTrue(VhostDeviceNodes.heldOpen(host.process(), node), "held by another process");
            other.close(fd);
            assertFalse(VhostDeviceNodes.heldOpen(host.process(), node), "free again");
            assertFalse(VhostDeviceNodes.heldOpen(host.process(), "/dev/vhost-vdpa-77"), "ENOENT is not 'held'");
        }
    }
}
