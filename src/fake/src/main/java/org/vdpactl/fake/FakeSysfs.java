package org.vdpactl.fake;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import java.util.TreeSet;
import org.vdpactl.fake.vfs.DevNullFile;
import org.vdpactl.fake.vfs.KernelConstants;
import org.vdpactl.fake.device.FakeVdpaBus;
import org.vdpactl.fake.device.FakeVdpaDevice;
import org.vdpactl.fake.errno.KernelError;
import org.vdpactl.sys.Errno;
import org.vdpactl.sys.FileStat;

/**
 * The slice of devtmpfs, sysfs and procfs vdpactl looks at, generated from the bus on every call:
 * <ul>
 *   <li>/dev/vhost-vdpa-N — char device 248:N, root:root 0600 unless a {@link NodePermissionRule} says otherwise</li>
 *   <li>/sys/bus/vdpa/devices/&lt;name&gt;/ — with vhost-vdpa-N/, driver → vhost_vdpa, …</li>
 *   <li>/sys/dev/char/248:N → the node's sysfs directory (there is no /sys/class/vhost-vdpa: vhost_vdpa
 *       registers its devices without a class, checked on 6.12)</li>
 *   <li>/proc/devices, /proc/modules</li>
 * </ul>
 * Everything else is ENOENT. Symbolic links are followed (stat semantics).
 */
final class FakeSysfs {
    /** The major of the vhost-vdpa char region, as its driver registered it. */
    private final int major;
    private final FakeVdpaBus bus;
    private final DevNodePermissions nodes;

    FakeSysfs(FakeVdpaBus bus, DevNodePermissions nodes, int major) {
        this.bus = bus;
        this.nodes = nodes;
        this.major = major;
    }

    private sealed interface Node permits Dir, Attr, CharDev, Link {
    }

    private record Dir(Map<String, Node> children) implements Node {
        Dir() {
            this(new TreeMap<>());
        }

        Dir dir(String name) {
            return (Dir) children.computeIfAbsent(name, k -> new Dir());
        }
    }

    /** A sysfs attribute; {@code content} null = write-only (no show method: opening it for reading is EACCES, even for root). */
    private record Attr(byte[] content, int mode) implements Node {
    }

    private record CharDev(int major, int minor, DevNodePermissions.Attributes attributes) implements Node {
    }

    private record Link(String target) implements Node {
    }

    FileStat stat(String path) {
        if (DevNullFile.PATH.equals(path)) {
            return DevNullFile.STAT;
        }
        Node n = resolve(path);
        return switch (n) {
            case Dir d -> new FileStat(FileStat.Type.DIRECTORY, 0755, 0, 0, 0, 0);
            case Attr a -> new FileStat(FileStat.Type.REGULAR, a.mode(), 0, 0, 0, 0);
            case CharDev c -> new FileStat(FileStat.Type.CHAR_DEVICE, c.attributes().mode(), c.attributes().uid(),
                    c.attributes().gid(), c.major(), c.minor());
            case Link l -> throw new IllegalStateException("unresolved link " + l);
        };
    }

    List<String> list(String path) {
        if (resolve(path) instanceof Dir d) {
            return new ArrayList<>(d.children().keySet());
        }
        throw KernelError.of(Errno.ENOTDIR, path + " is not a directory");
    }

    byte[] read(String path) {
        Node n = resolve(path);
        if (n instanceof Attr a) {
            if (a.content() == null) {
                throw KernelError.of(Errno.EACCES, path + " is write-only (sysfs has no show method for it)");
            }
            return a.content().clone();
        }
        if (n instanceof Dir) {
            throw KernelError.of(KernelConstants.EISDIR, path + " is a directory");
        }
        throw KernelError.of(Errno.EINVAL, path + " cannot be read like a file");
    }

    private Node resolve(String path) {
        if (path == null || !path.startsWith("/")) {
            throw KernelError.of(Errno.ENOENT, "relative or empty path " + path);
        }
        Dir root = build();
        return walk(root, path, 0);
    }

    private Node walk(Dir root, String path, int depth) {
        if (depth > 8) {
            throw KernelError.of(Errno.ENOENT, "too many links at " + path);
        }
        Node at = root;
        String[] parts = path.split("/");
        for (int i = 0; i < parts.length; i++) {
            String p = parts[i];
            if (p.isEmpty() || p.equals(".")) {
                continue;
            }
            if (!(at instanceof Dir d)) {
                throw KernelError.of(Errno.ENOTDIR, path + ": a component is not a directory");
            }
            Node next = d.children().get(p);
            if (next == null) {
                throw KernelError.of(Errno.ENOENT, path + " does not exist");
            }
            if (next instanceof Link l) {
                next = walk(root, l.target(), depth + 1);
            }
            at = next;
        }
        return at;
    }

    private Dir build() {
        Dir root = new Dir();
        Dir dev = root.dir("dev");
        Dir vdpaBus = root.dir("sys").dir("bus").dir("vdpa");
        Dir devices = vdpaBus.dir("devices");
        Dir driver = vdpaBus.dir("drivers").dir("vhost_vdpa");
        // a driver's bind, unbind and uevent are write-only attributes (DRIVER_ATTR_WO)
        for (String wo : new String[] {"bind", "uevent", "unbind"}) {
            driver.children().put(wo, new Attr(null, 0200));
        }
        Dir devChar = root.dir("sys").dir("dev").dir("char");
        Dir proc = root.dir("proc");
        for (FakeVdpaDevice d : bus.nodes().values()) {
            String node = "vhost-vdpa-" + d.minor();
            dev.children().put(node, new CharDev(major, d.minor(), nodes.of(node)));
            String devDir = "/sys/bus/vdpa/devices/" + d.name();
            Dir dd = devices.dir(d.name());
            dd.children().put("driver", new Link("/sys/bus/vdpa/drivers/vhost_vdpa"));
            dd.children().put("driver_override", attr("(null)\n", 0644));
            dd.dir("power");
            dd.children().put("subsystem", new Link("/sys/bus/vdpa"));
            dd.children().put("uevent", attr("DRIVER=vhost_vdpa\n", 0644));
            Dir nd = dd.dir(node);
            nd.children().put("dev", attr(major + ":" + d.minor() + "\n", 0444));
            // vhost_vdpa registers the node's device with neither a class nor a bus: no "device" or
            // "subsystem" link, and dev_uevent_filter hides its uevent, so the file reads empty
            nd.dir("power");
            nd.children().put("uevent", attr("", 0644));
            devChar.children().put(major + ":" + d.minor(), new Link(devDir + "/" + node));
            driver.children().put(d.name(), new Link(devDir));
        }
        proc.children().put("devices", attr("Character devices:\n  1 mem\n  5 /dev/tty\n 10 misc\n"
                + major + " vhost-vdpa\n\nBlock devices:\n  7 loop\n", 0444));
        proc.children().put("modules", attr(modules(), 0444));
        return root;
    }

    private String modules() {
        StringBuilder sb = new StringBuilder();
        boolean sim = false;
        Set<String> drivers = new TreeSet<>();
        for (var m : bus.fakeManagementDevices()) {
            String model = m.profile().name();
            if (model.startsWith("vdpasim")) {
                sim = true;
                drivers.add(model.equals("vdpasim_net") ? "vdpa_sim_net" : "vdpa_sim_blk");
            } else if (model.equals("mlx5")) {
                drivers.add("mlx5_vdpa");
            }
        }
        for (String d : drivers) {
            sb.append(d).append(" 20480 0 - Live 0x0000000000000000\n");
        }
        if (sim) {
            sb.append("vdpa_sim 24576 2 vdpa_sim_net,vdpa_sim_blk, Live 0x0000000000000000\n");
        }
        sb.append("vhost_vdpa 32768 0 - Live 0x0000000000000000\n");
        sb.append("vhost 61440 1 vhost_vdpa, Live 0x0000000000000000\n");
        sb.append("vhost_iotlb 16384 2 vhost_vdpa,vhost, Live 0x0000000000000000\n");
        sb.append("vdpa 36864 3 vhost_vdpa, Live 0x0000000000000000\n");
        return sb.toString();
    }

    private static Attr attr(String content, int mode) {
        return new Attr(content.getBytes(StandardCharsets.US_ASCII), mode);
    }

    /** A regular file's content for open(2), or null when {@code path} is not a regular file; EACCES for write-only ones. */
    byte[] contentOrNull(String path) {
        Node n;
        try {
            n = resolve(path);
        } catch (KernelError e) {
            return null;
        }
        return n instanceof Attr ? read(path) : null;
    }
}
