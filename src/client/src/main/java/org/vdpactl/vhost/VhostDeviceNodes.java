package org.vdpactl.vhost;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

import org.vdpactl.ffi.gen.libc.libc_h;
import org.vdpactl.sys.Errno;
import org.vdpactl.sys.FileStat;
import org.vdpactl.sys.SyscallException;
import org.vdpactl.sys.Syscalls;

/**
 * Finds and checks vhost-vdpa device nodes through the seam's file-system calls, the way the
 * kernel lays them out (checked on 6.12):
 * <ul>
 *   <li>a path must be a character device whose major is registered as "vhost-vdpa" in
 *       {@code /proc/devices}; vhost_vdpa names the device {@code vhost-vdpa-<minor>}. Anything else
 *       is refused before it is opened (vhost ioctls on the wrong node are at best confusing);</li>
 *   <li>a vDPA device name ("vdpa0") resolves through {@code /sys/bus/vdpa/devices/vdpa0/vhost-vdpa-N}
 *       (present only while the device is bound to the vhost_vdpa driver), whose {@code dev}
 *       attribute must equal the major:minor of {@code /dev/vhost-vdpa-N}.</li>
 * </ul>
 * There is no {@code /sys/class/vhost-vdpa}: vhost_vdpa registers its devices without a class.
 * The same sysfs walk answers the reverse questions the CLI and the management layer ask: which
 * vDPA device a node belongs to, and which vdpa driver a device is bound to.
 */
public final class VhostDeviceNodes {
    public static final String SYS_BUS_DEVICES = "/sys/bus/vdpa/devices";
    public static final String SYS_BUS_DRIVERS = "/sys/bus/vdpa/drivers";
    public static final String PROC_DEVICES = "/proc/devices";
    public static final String DEV = "/dev";
    /** The name vhost_vdpa registers its char major under. */
    public static final String MAJOR_NAME = "vhost-vdpa";
    private static final Pattern NODE_NAME = Pattern.compile("vhost-vdpa-\\d+");

    private VhostDeviceNodes() {
    }

    /**
     * A checked vhost-vdpa node.
     *
     * @param path    e.g. "/dev/vhost-vdpa-0"
     * @param sysName the kernel's device name, "vhost-vdpa-" + minor
     * @param major   device major
     * @param minor   device minor
     */
    public record Node(String path, String sysName, int major, int minor) {
    }

    /**
     * What sysfs says of a vDPA device's vhost-vdpa node, before anything checks the node itself.
     *
     * @param vdpaName  "vdpa0"
     * @param path      "/dev/vhost-vdpa-0"
     * @param devNumber "major:minor" from the {@code dev} attribute, or null when sysfs did not say
     */
    public record BusEntry(String vdpaName, String path, String devNumber) {
    }

    /**
     * Resolves a path ("/dev/vhost-vdpa-0"), a node name ("vhost-vdpa-0") or a vDPA device name
     * ("vdpa0") to a checked node.
     *
     * @throws VhostNodeException with the reason when it does not lead to a vhost-vdpa node
     */
    public static Node resolve(Syscalls sys, String nameOrPath) {
        if (nameOrPath.contains("/")) {
            return check(sys, nameOrPath);
        }
        if (NODE_NAME.matcher(nameOrPath).matches()) {
            return check(sys, DEV + "/" + nameOrPath);
        }
        List<String> entries;
        try {
            entries = deviceEntries(sys, nameOrPath);
        } catch (IllegalArgumentException e) {
            throw new VhostNodeException(nameOrPath, "not a vDPA device name");
        }
        if (entries == null) {
            throw new VhostNodeException(nameOrPath, VhostNodeException.Reason.MISSING, 0, "no vDPA device of that name" + existingDevices(sys));
        }
        String dir = SYS_BUS_DEVICES + "/" + nameOrPath;
        BusEntry entry = busEntry(sys, nameOrPath, entries).orElseThrow(() -> new VhostNodeException(nameOrPath,
                "the vDPA device is not bound to the vhost_vdpa driver (no vhost-vdpa-N under " + dir
                        + "; it may be bound to virtio_vdpa: unbind it and bind it to vhost_vdpa)"));
        Node node = check(sys, entry.path());
        if (entry.devNumber() != null && !entry.devNumber().equals(node.major() + ":" + node.minor())) {
            throw new VhostNodeException(nameOrPath, node.path() + " is " + node.major() + ":" + node.minor() + " but " + dir + "/"
                    + entry.path().substring(DEV.length() + 1) + "/dev says " + entry.devNumber() + " (a stale or foreign /dev node)");
        }
        return node;
    }

    /** The names of all vDPA devices on the bus (empty without the vdpa bus). */
    public static List<String> vdpaDevices(Syscalls sys) {
        try {
            return sys.listDirectory(SYS_BUS_DEVICES);
        } catch (SyscallException e) {
            if (e.is(Errno.ENOENT)) {
                return List.of();
            }
            throw e;
        }
    }

    /**
     * The vhost-vdpa entry sysfs shows for a vDPA device, unchecked; empty when there is no such
     * device or it is not bound to vhost_vdpa (bound to virtio_vdpa, it has a virtioN entry instead).
     *
     * @throws IllegalArgumentException for a name that would leave {@code /sys/bus/vdpa/devices}
     */
    public static Optional<BusEntry> busEntry(Syscalls sys, String vdpaName) {
        List<String> entries = deviceEntries(sys, vdpaName);
        return entries == null ? Optional.empty() : busEntry(sys, vdpaName, entries);
    }

    /** The vDPA device behind a {@code /dev/vhost-vdpa-N} path (or node name), if sysfs names one. */
    public static Optional<String> vdpaNameOf(Syscalls sys, String devPath) {
        String node = devPath.substring(devPath.lastIndexOf('/') + 1);
        for (String name : vdpaDevices(sys)) {
            Optional<BusEntry> e = busEntry(sys, name);
            if (e.isPresent() && e.get().path().endsWith("/" + node)) {
                return Optional.of(name);
            }
        }
        return Optional.empty();
    }

    /** The vdpa driver a device is bound to ("vhost_vdpa", "virtio_vdpa"), if any. */
    public static Optional<String> driver(Syscalls sys, String vdpaName) {
        checkName(vdpaName);
        List<String> drivers;
        try {
            drivers = sys.listDirectory(SYS_BUS_DRIVERS);
        } catch (SyscallException e) {
            return Optional.empty();
        }
        for (String d : drivers) {
            try {
                if (sys.listDirectory(SYS_BUS_DRIVERS + "/" + d).contains(vdpaName)) {
                    return Optional.of(d);
                }
            } catch (SyscallException e) {
                // a driver directory that vanished or cannot be read binds nothing we can see
            }
        }
        return Optional.empty();
    }

    /**
     * Checks that {@code path} is a vhost-vdpa character device.
     *
     * @throws VhostNodeException naming what it is instead
     */
    public static Node check(Syscalls sys, String path) {
        FileStat st;
        try {
            st = sys.stat(path);
        } catch (SyscallException e) {
            throw new VhostNodeException(path, e.is(Errno.ENOENT) ? VhostNodeException.Reason.MISSING
                    : VhostNodeException.Reason.STAT_FAILED, e.errno(), "cannot stat: " + Errno.describe(e.errno()));
        }
        if (!st.isCharDevice()) {
            throw new VhostNodeException(path, "not a character device ("
                    + st.type().name().toLowerCase(Locale.ROOT).replace('_', ' ') + ")");
        }
        String owner = charMajorName(sys, path, st.rdevMajor());
        if (!MAJOR_NAME.equals(owner)) {
            throw new VhostNodeException(path, "character device " + st.devNumber() + " is not a vhost-vdpa device ("
                    + (owner == null ? "major " + st.rdevMajor() + " is not registered" : "major " + st.rdevMajor() + " is " + owner)
                    + ")");
        }
        return new Node(path, MAJOR_NAME + "-" + st.rdevMinor(), st.rdevMajor(), st.rdevMinor());
    }

    /**
     * True when another file description holds the node open: vhost_vdpa allows one opener, so
     * opening it as the device API does ({@code O_RDWR | O_CLOEXEC}) fails with EBUSY. The probe's
     * own fd is closed at once (the open resets the device, as any open does). False for any other
     * failure: the caller's next step reports that better.
     */
    public static boolean heldOpen(Syscalls sys, String path) {
        return openErrno(sys, path) == Errno.EBUSY;
    }

    /**
     * The errno an open of the node {@code path} meets now, or 0 when it opened (and was closed again): EBUSY while
     * another process holds it, ENOENT once a delete has claimed it for good (the node is gone from /dev).
     */
    public static int openErrno(Syscalls sys, String path) {
        int fd;
        try {
            fd = sys.open(path, libc_h.O_RDWR() | libc_h.O_CLOEXEC());
        } catch (SyscallException e) {
            return e.errno();
        }
        sys.close(fd);
        return 0;
    }

    /** Every vhost-vdpa node of the vDPA devices bound to vhost_vdpa, as /dev paths (unchecked), by device name. */
    public static List<String> listNodes(Syscalls sys) {
        List<String> out = new ArrayList<>();
        for (String d : vdpaDevices(sys)) {
            try {
                busEntry(sys, d).ifPresent(e -> out.add(e.path()));
            } catch (SyscallException | IllegalArgumentException e) {
                // the device vanished while we looked, or the bus lists a name we will not walk into
            }
        }
        return out;
    }

    /** The entries of a device's sysfs directory, or null when there is no such device. */
    private static List<String> deviceEntries(Syscalls sys, String vdpaName) {
        checkName(vdpaName);
        try {
            return sys.listDirectory(SYS_BUS_DEVICES + "/" + vdpaName);
        } catch (SyscallException e) {
            if (e.is(Errno.ENOENT) || e.is(Errno.ENOTDIR)) {
                return null;
            }
            throw e;
        }
    }

    private static Optional<BusEntry> busEntry(Syscalls sys, String vdpaName, List<String> entries) {
        for (String entry : entries) {
            if (NODE_NAME.matcher(entry).matches()) {
                String attr = SYS_BUS_DEVICES + "/" + vdpaName + "/" + entry + "/dev";
                return Optional.of(new BusEntry(vdpaName, DEV + "/" + entry, attribute(sys, attr)));
            }
        }
        return Optional.empty();
    }

    private static void checkName(String vdpaName) {
        if (vdpaName.isEmpty() || vdpaName.contains("/") || vdpaName.equals(".") || vdpaName.equals("..")) {
            throw new IllegalArgumentException("not a vDPA device name: \"" + vdpaName + "\"");
        }
    }

    /** The driver name /proc/devices gives a char major, or null. */
    private static String charMajorName(Syscalls sys, String path, int major) {
        String devices = attribute(sys, PROC_DEVICES);
        if (devices == null) {
            throw new VhostNodeException(path, VhostNodeException.Reason.MODULE_NOT_LOADED, 0, "cannot read " + PROC_DEVICES);
        }
        boolean chars = false;
        boolean anyVhost = false;
        String found = null;
        for (String line : devices.split("\n")) {
            String l = line.trim();
            if (l.endsWith(":")) {
                chars = l.startsWith("Character");
                continue;
            }
            String[] parts = l.split("\\s+", 2);
            if (!chars || parts.length != 2) {
                continue;
            }
            anyVhost |= parts[1].equals(MAJOR_NAME);
            if (parts[0].equals(Integer.toString(major))) {
                found = parts[1];
            }
        }
        if (found == null && !anyVhost) {
            throw new VhostNodeException(path, VhostNodeException.Reason.MODULE_NOT_LOADED, 0, "no \"" + MAJOR_NAME + "\" in " + PROC_DEVICES
                    + ": the vhost_vdpa module is not loaded (modprobe vhost_vdpa)");
        }
        return found;
    }

    private static String attribute(Syscalls sys, String file) {
        try {
            return new String(sys.readSmallFile(file), StandardCharsets.US_ASCII).trim();
        } catch (SyscallException e) {
            return null;
        }
    }

    private static String existingDevices(Syscalls sys) {
        try {
            List<String> names = sys.listDirectory(SYS_BUS_DEVICES);
            return names.isEmpty() ? " (no vDPA devices exist; create one with vdpa dev add)"
                    : " (existing: " + String.join(", ", names) + ")";
        } catch (SyscallException e) {
            return " (" + SYS_BUS_DEVICES + " is missing: the vdpa module is not loaded)";
        }
    }
}
