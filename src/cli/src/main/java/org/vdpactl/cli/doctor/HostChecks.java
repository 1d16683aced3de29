package org.vdpactl.cli.doctor;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.vdpactl.cli.Sizes;
import org.vdpactl.sys.MemlockLimit;
import org.vdpactl.vhost.MemlockHint;

/** The host half of the doctor: who we are, limits, modules, kernel, hugepages. */
final class HostChecks {
    private final HostFacts host;

    HostChecks(HostFacts host) {
        this.host = host;
    }

    List<Check> run(long memoryBytes) {
        List<Check> out = new ArrayList<>();
        out.add(privileges());
        out.add(memlock(memoryBytes));
        out.addAll(modules());
        out.add(Check.info("kernel", "kernel", host.kernelRelease()
                + " (capabilities are probed per device: stable kernels backport vDPA features)"));
        out.add(hugepages());
        simulatorParameters().ifPresent(out::add);
        return out;
    }

    private Check privileges() {
        int euid = host.euid();
        boolean netAdmin = host.hasCapability(HostFacts.CAP_NET_ADMIN);
        String detail = (euid < 0 ? "euid unknown" : "euid " + euid) + (netAdmin ? ", CAP_NET_ADMIN" : ", no CAP_NET_ADMIN");
        if (euid == 0 || netAdmin) {
            return Check.ok("privileges", "privileges", detail);
        }
        return Check.warn("privileges", "privileges", detail,
                "`dev add/del/set/vstats` need CAP_NET_ADMIN and the device nodes are root 0600: use sudo, or --fd N from a privileged parent");
    }

    private Check memlock(long memoryBytes) {
        String title = "RLIMIT_MEMLOCK";
        return MemlockLimit.current().map(l -> {
            String detail = l.describe() + "; a rehearsal of " + Sizes.format(memoryBytes) + " pins that much on PA-mode drivers"
                    + " (mlx5; every driver on Linux 6.1, whose vdpa_sim has no use_va: docs/kernel-profiles.md)";
            if (l.soft() < 0 || l.soft() >= memoryBytes) {
                return Check.ok("memlock", title, detail);
            }
            return Check.warn("memlock", title, detail, MemlockHint.of(memoryBytes)
                    + " (vhost-vdpa ignores CAP_IPC_LOCK for this limit)");
        }).orElse(Check.warn("memlock", title, "cannot read the limit", null));
    }

    private List<Check> modules() {
        List<Check> out = new ArrayList<>();
        boolean bus = host.vdpaBusPresent();
        out.add(bus ? Check.ok("module:vdpa", "vdpa bus + netlink family", "present")
                : Check.fail("module:vdpa", "vdpa bus + netlink family", "absent (module vdpa not loaded or not built)",
                        "modprobe vdpa vhost_vdpa (and a driver: mlx5_vdpa, vdpa_sim_net, vduse)"));
        // /proc/devices lists the vhost-vdpa char major whether the driver is a module or built in
        boolean vhost = host.modulepresent("vhost_vdpa") || host.charDriverRegistered("vhost-vdpa");
        out.add(vhost ? Check.ok("module:vhost_vdpa", "vhost_vdpa", "present")
                : Check.fail("module:vhost_vdpa", "vhost_vdpa", "not loaded", "modprobe vhost_vdpa"));
        boolean mlx5 = host.modulepresent("mlx5_vdpa");
        out.add(mlx5 ? Check.ok("module:mlx5_vdpa", "mlx5_vdpa", "loaded")
                : Check.info("module:mlx5_vdpa", "mlx5_vdpa", "not loaded (needed for ConnectX devices only)"));
        return out;
    }

    /** vdpa_sim's defaults hide the pinning/memlock path (VA mode) and the per-message set_map cost (batching). */
    private Optional<Check> simulatorParameters() {
        if (!host.modulepresent("vdpa_sim")) {
            return Optional.empty();
        }
        String useVa = host.moduleParameter("vdpa_sim", "use_va").orElse("?");
        String batch = host.moduleParameter("vdpa_sim", "batch_mapping").orElse("?");
        String entries = host.moduleParameter("vdpa_sim", "max_iotlb_entries").orElse("?");
        return Optional.of(Check.info("vdpa_sim", "vdpa_sim parameters",
                "use_va=" + useVa + " batch_mapping=" + batch + " max_iotlb_entries=" + entries
                + ("Y".equals(useVa) ? " (VA mode: no pinning, only shared memory is mapped)" : "")));
    }

    private Check hugepages() {
        long total = host.meminfo("HugePages_Total").orElse(0L);
        long free = host.meminfo("HugePages_Free").orElse(0L);
        long sizeKb = host.meminfo("Hugepagesize").orElse(0L);
        String detail = total + " total, " + free + " free of " + sizeKb + " kB";
        return total > 0 ? Check.ok("hugepages", "hugepages", detail)
                : Check.info("hugepages", "hugepages", detail + " (4 KiB-granular maps make mlx5 MKEY work ~50x larger)");
    }
}
