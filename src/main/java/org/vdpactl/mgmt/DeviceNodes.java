package org.vdpactl.mgmt;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vdpactl.sys.Errno;
import org.vdpactl.sys.FileStat;
import org.vdpactl.sys.SyscallException;
import org.vdpactl.sys.Syscalls;

/**
 * Links vDPA devices to their character devices through sysfs, using only the syscall seam:
 * {@code /sys/bus/vdpa/devices/<name>/vhost-vdpa-N} (present while vhost_vdpa drives the device)
 * names {@code /dev/vhost-vdpa-N}, and its {@code dev} attribute holds the "major:minor" the node
 * must have. Lets a CLI accept "vdpa0" wherever a device path is expected.
 */
public final class DeviceNodes {
    private static final Logger LOG = LoggerFactory.getLogger(DeviceNodes.class);
    public static final String DEVICES_DIR = "/sys/bus/vdpa/devices";
    public static final String DRIVERS_DIR = "/sys/bus/vdpa/drivers";
    private static final Pattern VHOST_NODE = Pattern.compile("vhost-vdpa-\\d+");

    /**
     * A device's vhost-vdpa node.
     *
     * @param vdpaName  "vdpa0"
     * @param path      "/dev/vhost-vdpa-0"
     * @param devNumber "major:minor" from sysfs, or null when sysfs did not say
     */
    public record Node(String vdpaName, String path, String devNumber) {
    }

    private final Syscalls sys;

    public DeviceNodes(Syscalls sys) {
        this.sys = sys;
    }

    /** The names of all vDPA devices on the bus (empty without the vdpa bus). */
    public List<String> vdpaDevices() {
        try {
            return sys.listDirectory(DEVICES_DIR);
        } catch (SyscallException e) {
            if (e.errno() == Errno.ENOENT) {
                return List.of();
            }
            throw e;
        }
    }

    /** The vhost-vdpa node of a device, if it has one (it has none while bound to virtio_vdpa). */
    public Optional<Node> node(String vdpaName) {
        String dir = deviceDir(vdpaName);
        List<String> entries;
        try {
            entries = sys.listDirectory(dir);
        } catch (SyscallException e) {
            if (e.errno() == Errno.ENOENT || e.errno() == Errno.ENOTDIR) {
                return Optional.empty();
            }
            throw e;
        }
        for (String entry : entries) {
            if (VHOST_NODE.matcher(entry).matches()) {
                return Optional.of(new Node(vdpaName, "/dev/" + entry, readDevNumber(dir + "/" + entry + "/dev")));
            }
        }
        return Optional.empty();
    }

    /** Like {@link #node}, but explains why there is none (ENODEV). */
    public Node requireNode(String vdpaName) {
        Optional<Node> n = node(vdpaName);
        if (n.isPresent()) {
            return n.get();
        }
        if (!vdpaDevices().contains(vdpaName)) {
            throw new SyscallException("find the vhost-vdpa node of " + vdpaName + ": no such vDPA device in " + DEVICES_DIR, Errno.ENODEV);
        }
        String drv = driver(vdpaName).map(d -> "it is bound to " + d).orElse("it is bound to no driver");
        throw new SyscallException("find the vhost-vdpa node of " + vdpaName + ": " + drv + ", not vhost_vdpa", Errno.ENODEV);
    }

    /** The driver a device is bound to ("vhost_vdpa", "virtio_vdpa"), if any. */
    public Optional<String> driver(String vdpaName) {
        checkName(vdpaName);
        List<String> drivers;
        try {
            drivers = sys.listDirectory(DRIVERS_DIR);
        } catch (SyscallException e) {
            return Optional.empty();
        }
        for (String d : drivers) {
            try {
                if (sys.listDirectory(DRIVERS_DIR + "/" + d).contains(vdpaName)) {
                    return Optional.of(d);
                }
            } catch (SyscallException e) {
                LOG.debug("cannot list driver {}: {}", d, e.getMessage());
            }
        }
        return Optional.empty();
    }

    /** The vDPA device behind a {@code /dev/vhost-vdpa-N} path, if sysfs names one. */
    public Optional<String> vdpaNameOf(String devPath) {
        String node = devPath.substring(devPath.lastIndexOf('/') + 1);
        for (String name : vdpaDevices()) {
            Optional<Node> n = node(name);
            if (n.isPresent() && n.get().path().endsWith("/" + node)) {
                return Optional.of(name);
            }
        }
        return Optional.empty();
    }

    /**
     * A path to open for a user's argument: a path (anything with '/') is returned as it is, a
     * device name ("vdpa0") becomes its vhost-vdpa node. Warns when the node's device number
     * disagrees with sysfs (a stale node).
     */
    public String resolvePath(String nameOrPath) {
        if (nameOrPath.contains("/")) {
            return nameOrPath;
        }
        Node n = requireNode(nameOrPath);
        if (n.devNumber() != null) {
            try {
                FileStat st = sys.stat(n.path());
                if (!st.isCharDevice() || !st.devNumber().equals(n.devNumber())) {
                    LOG.warn("{} is {} {} but sysfs says char device {}", n.path(), st.type(), st.devNumber(), n.devNumber());
                }
            } catch (SyscallException e) {
                LOG.debug("stat {}: {}", n.path(), e.getMessage());
            }
        }
        return n.path();
    }

    private String deviceDir(String vdpaName) {
        checkName(vdpaName);
        return DEVICES_DIR + "/" + vdpaName;
    }

    private static void checkName(String vdpaName) {
        if (vdpaName.isEmpty() || vdpaName.contains("/") || vdpaName.equals(".") || vdpaName.equals("..")) {
            throw new IllegalArgumentException("not a vDPA device name: \"" + vdpaName + "\"");
        }
    }

    private String readDevNumber(String path) {
        try {
            return new String(sys.readSmallFile(path), StandardCharsets.US_ASCII).trim();
        } catch (SyscallException e) {
            return null;
        }
    }
}
