package org.vdpactl.cli.doctor;

import java.util.ArrayList;
import java.util.List;
import org.vdpactl.abi.KernelProfile;
import org.vdpactl.abi.KernelProfiles;
import org.vdpactl.abi.UapiIoctl;
import org.vdpactl.cli.KernelFeatures;
import org.vdpactl.cli.host.HolderUsers;
import org.vdpactl.sys.Errno;
import org.vdpactl.sys.FileStat;
import org.vdpactl.sys.SyscallException;
import org.vdpactl.sys.Syscalls;
import org.vdpactl.vhost.BackendFeature;
import org.vdpactl.vhost.BackendFeatures;
import org.vdpactl.vhost.VhostDeviceNodes;
import org.vdpactl.vhost.VhostVdpaDevice;

/**
 * Checks every /dev/vhost-vdpa-N through the syscall seam (so the same checks describe the fake
 * kernel's devices under --backend fake): node type and mode, the vdpa device it belongs to,
 * whether it can be opened, and what its backend features mean for a migration.
 */
final class DeviceChecks {
    private final Syscalls sys;
    private final HostFacts host;
    private final String suffix;

    DeviceChecks(Syscalls sys, HostFacts host, boolean simulated) {
        this.sys = sys;
        this.host = host;
        this.suffix = simulated ? " (simulated)" : "";
    }

    /** Node paths of all vhost-vdpa devices, or only of the given ones (names resolved through sysfs). */
    List<String> nodes(List<String> only) {
        if (only.isEmpty()) {
            return VhostDeviceNodes.listNodes(sys);
        }
        List<String> out = new ArrayList<>();
        for (String d : only) {
            try {
                out.add(VhostDeviceNodes.resolve(sys, d).path());
            } catch (RuntimeException e) {
                out.add(d.startsWith("/") ? d : "/dev/" + d);
            }
        }
        return out;
    }

    /** The vdpa device a node belongs to (sysfs), or "?". */
    String vdpaNameOf(String node) {
        return VhostDeviceNodes.vdpaNameOf(sys, node).orElse("?");
    }

    List<Check> check(String node) {
        List<Check> out = new ArrayList<>();
        String id = "node:" + node;
        String vdpaName = vdpaNameOf(node);
        FileStat st;
        try {
            st = sys.stat(node);
        } catch (SyscallException e) {
            out.add(Check.fail(id, node, "cannot stat: " + e.getMessage(), "is the device name right? `vdpactl dev list` shows the devices"));
            return out;
        }
        if (!st.isCharDevice()) {
            out.add(Check.fail(id, node, "not a character device (" + st.type() + ")", "give a /dev/vhost-vdpa-N node or a vdpa device name"));
            return out;
        }
        out.add(Check.ok(id, node + suffix, String.format("char %s, mode %04o, uid %d gid %d, vdpa device %s",
                st.devNumber(), st.mode(), st.uid(), st.gid(), vdpaName)));
        try (VhostVdpaDevice dev = VhostVdpaDevice.open(sys, node)) {
            BackendFeatures offered = dev.getBackendFeatures();
            out.add(migrationReadiness(id, node + suffix, dev.deviceType().toString(), offered));
        } catch (SyscallException e) {
            if (e.errno() == Errno.EBUSY) {
                // with the user each runs as (getpwuid): whom to ask to stop it
                List<String> holders = sys.holdersOf(node).stream().map(HolderUsers::withUser).toList();
                out.add(Check.warn(id + ":open", node + " open", "held open by another process"
                        + (holders.isEmpty() ? "" : ": " + String.join(", ", holders)),
                        "vhost-vdpa allows one opener; stop the VMM using it or pick another device"));
            } else if (e.errno() == Errno.EACCES || e.errno() == Errno.EPERM) {
                out.add(Check.fail(id + ":open", node + " open", "permission denied",
                        "run as root, or have a privileged parent pass the fd (--fd N), or chown the node"));
            } else {
                out.add(Check.fail(id + ":open", node + " open", e.getMessage(), null));
            }
        }
        return out;
    }

    private static Check migrationReadiness(String id, String node, String type, BackendFeatures offered) {
        String title = node + " backend features";
        String detail = type + ", offers " + offered;
        List<String> missing = new ArrayList<>();
        for (BackendFeature f : List.of(BackendFeature.IOTLB_MSG_V2, BackendFeature.IOTLB_BATCH)) {
            if (!offered.has(f)) {
                missing.add(f.name());
            }
        }
        if (!missing.isEmpty()) {
            return Check.fail(id + ":features", title, detail + "; missing " + String.join(", ", missing),
                    "a downtime rehearsal maps memory with batched IOTLB v2 messages and has no fallback: update the kernel or driver");
        }
        List<String> costs = KernelFeatures.costs(offered);
        if (!costs.isEmpty()) {
            return Check.warn(id + ":features", title, detail + "; " + String.join("; ", costs),
                    "SUSPEND needs a driver with a suspend op; RESUME and IOTLB_PERSIST need a kernel with them"
                            + " (" + KernelProfiles.firstWithIoctl(UapiIoctl.VHOST_VDPA_RESUME).map(KernelProfile::version).orElse("none")
                            + " of the profiled " + String.join(", ", KernelProfiles.VERSIONS)
                            + "; docs/kernel-profiles.md) and a driver with resume / reset_map");
        }
        return Check.ok(id + ":features", title, detail + "; ready for suspend/resume migration");
    }
}
