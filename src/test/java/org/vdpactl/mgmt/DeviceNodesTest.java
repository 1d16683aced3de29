package org.vdpactl.mgmt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.vdpactl.sys.UnscriptedSyscalls;
import org.vdpactl.sys.Errno;
import org.vdpactl.sys.FileStat;
import org.vdpactl.sys.SyscallException;

/** The sysfs walk from a device name to its vhost-vdpa node, over a small scripted file tree. */
class DeviceNodesTest {

    /** /sys and /dev as a map: directories list their entries, files hold bytes. */
    static final class Tree extends UnscriptedSyscalls {
        final Map<String, List<String>> dirs;
        final Map<String, String> files;
        final Map<String, FileStat> nodes;

        Tree(Map<String, List<String>> dirs, Map<String, String> files, Map<String, FileStat> nodes) {
            this.dirs = dirs;
            this.files = files;
            this.nodes = nodes;
        }

        @Override
        public List<String> listDirectory(String path) {
            List<String> d = dirs.get(path);
            if (d == null) {
                throw new SyscallException("listDirectory " + path, Errno.ENOENT);
            }
            return d;
        }

        @Override
        public byte[] readSmallFile(String path) {
            String f = files.get(path);
            if (f == null) {
                throw new SyscallException("read " + path, Errno.ENOENT);
            }
            return f.getBytes(StandardCharsets.US_ASCII);
        }

        @Override
        public FileStat stat(String path) {
            FileStat s = nodes.get(path);
            if (s == null) {
                throw new SyscallException("stat " + path, Errno.ENOENT);
            }
            return s;
        }
    }

    static Tree sample() {
        return new Tree(Map.of(
                "/sys/bus/vdpa/devices", List.of("vdpa0", "vdpa1"),
                "/sys/bus/vdpa/devices/vdpa0", List.of("driver", "power", "subsystem", "uevent", "vhost-vdpa-0"),
                "/sys/bus/vdpa/devices/vdpa1", List.of("driver", "power", "subsystem", "uevent", "virtio1"),
                "/sys/bus/vdpa/drivers", List.of("vhost_vdpa", "virtio_vdpa"),
                "/sys/bus/vdpa/drivers/vhost_vdpa", List.of("bind", "unbind", "vdpa0"),
                "/sys/bus/vdpa/drivers/virtio_vdpa", List.of("bind", "unbind", "vdpa1")),
                Map.of("/sys/bus/vdpa/devices/vdpa0/vhost-vdpa-0/dev", "511:0\n"),
                Map.of("/dev/vhost-vdpa-0", new FileStat(FileStat.Type.CHAR_DEVICE, 0600, 0, 0, 511, 0)));
    }

    @Test
    void aNameLeadsToTheNodeAndBack() {
        DeviceNodes n = new DeviceNodes(sample());
        assertEquals(Optional.of(new DeviceNodes.Node("vdpa0", "/dev/vhost-vdpa-0", "511:0")), n.node("vdpa0"));
        assertEquals("/dev/vhost-vdpa-0", n.resolvePath("vdpa0"));
        assertEquals("/dev/vhost-vdpa-7", n.resolvePath("/dev/vhost-vdpa-7"), "paths pass through");
        assertEquals(Optional.of("vdpa0"), n.vdpaNameOf("/dev/vhost-vdpa-0"));
        assertEquals(Optional.of("vhost_vdpa"), n.driver("vdpa0"));
        assertEquals(List.of("vdpa0", "vdpa1"), n.vdpaDevices());
    }

    @Test
    void aDeviceOnVirtioVdpaHasNoNodeAndTheErrorSaysWhy() {
        DeviceNodes n = new DeviceNodes(sample());
        assertTrue(n.node("vdpa1").isEmpty());
        SyscallException e = assertThrows(SyscallException.class, () -> n.requireNode("vdpa1"));
        assertEquals(Errno.ENODEV, e.errno());
        assertTrue(e.getMessage().contains("virtio_vdpa"), e.getMessage());
        SyscallException none = assertThrows(SyscallException.class, () -> n.resolvePath("vdpa9"));
        assertEquals(Errno.ENODEV, none.errno());
        assertTrue(none.getMessage().contains("no such vDPA device"), none.getMessage());
    }

    @Test
    void namesCannotEscapeSysfs() {
        DeviceNodes n = new DeviceNodes(sample());
        assertThrows(IllegalArgumentException.class, () -> n.node("../../../etc"));
        assertThrows(IllegalArgumentException.class, () -> n.node(".."));
    }

    @Test
    void withoutTheVdpaBusThereAreNoDevices() {
        DeviceNodes n = new DeviceNodes(new Tree(Map.of(), Map.of(), Map.of()));
        assertEquals(List.of(), n.vdpaDevices());
        assertTrue(n.node("vdpa0").isEmpty());
    }
}
