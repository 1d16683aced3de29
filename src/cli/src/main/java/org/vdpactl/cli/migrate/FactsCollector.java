package org.vdpactl.cli.migrate;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.IntSupplier;
import org.vdpactl.cli.CliContext;
import org.vdpactl.cli.KernelFeatures;
import org.vdpactl.cli.doctor.HostFacts;
import org.vdpactl.cli.mgmt.Netlink;
import org.vdpactl.mgmt.DevConfig;
import org.vdpactl.mgmt.VdpaDevInfo;
import org.vdpactl.mgmt.VdpaNetlink;
import org.vdpactl.sys.Errno;
import org.vdpactl.sys.MemlockLimit;
import org.vdpactl.sys.SyscallException;
import org.vdpactl.sys.Syscalls;
import org.vdpactl.vhost.BackendFeature;
import org.vdpactl.vhost.BackendFeatures;
import org.vdpactl.vhost.DeviceStatus;
import org.vdpactl.vhost.VhostDeviceNodes;
import org.vdpactl.vhost.VhostVdpaDevice;
import org.vdpactl.vhost.VirtioDeviceId;
import org.vdpactl.vhost.VirtioFeatures;

/**
 * Reads this host's migration facts: every vDPA device through the vdpa netlink family (negotiated
 * features, config) and its vhost-vdpa node (offered and backend features, groups, address spaces,
 * where the control queue lands), plus the host's kernel, QEMU, RLIMIT_MEMLOCK and CAP_IPC_LOCK.
 * A node held by another process (a running VM) is not opened twice: its vhost facts come from a free
 * device of the same management device (same driver, same kernel), and say so.
 */
final class FactsCollector {
    /** PCI vendor 0x15b3 (Mellanox): the mlx5 vDPA driver. */
    private static final int MELLANOX = 0x15b3;

    private final CliContext ctx;
    private final HostFacts host = new HostFacts();

    FactsCollector(CliContext ctx) {
        this.ctx = ctx;
    }

    MigrationFacts collect(String hostName, MigrationFacts.Qemu qemu) {
        Syscalls sys = ctx.syscalls();
        String release = ctx.simulated() ? null : host.kernelRelease();
        String profile = KernelFeatures.profile(ctx.backend(), release).map(p -> p.version()).orElse(null);
        List<MigrationFacts.DeviceFacts> devices = new ArrayList<>();
        try (VdpaNetlink nl = Netlink.open(ctx)) {
            Map<String, VhostPart> byMgmtdev = new LinkedHashMap<>();
            List<VdpaDevInfo> infos = nl.devices();
            Map<String, VhostPart> parts = new LinkedHashMap<>();
            for (VdpaDevInfo info : infos) {
                VhostPart part = vhost(sys, info);
                parts.put(info.name(), part);
                if (part.backend != null) {
                    byMgmtdev.putIfAbsent(info.mgmtHandle(), part);
                }
            }
            for (VdpaDevInfo info : infos) {
                VhostPart part = parts.get(info.name());
                DevConfig config;
                try {
                    config = nl.config(info.name());
                } catch (SyscallException e) {
                    // 6.1 answers VDPA_CMD_DEV_CONFIG_GET of a block device with EOPNOTSUPP
                    part.unavailable.add("VDPA_CMD_DEV_CONFIG_GET: " + e.errnoName());
                    config = new DevConfig(info.name(), info.deviceId(), null, null, null, null, null, null);
                }
                devices.add(device(info, config, part, byMgmtdev.get(info.mgmtHandle())));
            }
        }
        MigrationFacts.Memlock memlock = MemlockLimit.current().map(l -> new MigrationFacts.Memlock(l.soft(), l.hard())).orElse(null);
        return new MigrationFacts(hostName, ctx.backendFields(List.of()), new MigrationFacts.Kernel(release, profile), qemu, memlock,
                host.hasCapability(HostFacts.CAP_IPC_LOCK), devices);
    }

    /** What the device's vhost-vdpa node says (null fields when it could not be opened). */
    private static final class VhostPart {
        String node;
        Long features;
        BackendFeatures backend;
        Integer status;
        Integer groups;
        Integer ases;
        MigrationFacts.Cvq cvq;
        List<String> heldBy = List.of();
        final List<String> unavailable = new ArrayList<>();
    }

    private VhostPart vhost(Syscalls sys, VdpaDevInfo info) {
        VhostPart p = new VhostPart();
        Optional<VhostDeviceNodes.BusEntry> entry = VhostDeviceNodes.busEntry(sys, info.name());
        if (entry.isEmpty()) {
            p.unavailable.add("no vhost-vdpa node (the device is not bound to vhost_vdpa)");
            return p;
        }
        p.node = entry.get().path();
        try (VhostVdpaDevice dev = VhostVdpaDevice.open(sys, p.node)) {
            p.features = dev.getFeatures().bits();
            p.backend = dev.getBackendFeatures();
            p.status = dev.getStatus().bits();
            p.groups = optional(dev::getGroupNum, "VHOST_VDPA_GET_GROUP_NUM", p);
            p.ases = optional(dev::getAsNum, "VHOST_VDPA_GET_AS_NUM", p);
            if (info.deviceId() == VirtioDeviceId.NET.id() && (p.features & QemuRules.mask("VIRTIO_NET_F_CTRL_VQ")) != 0) {
                p.cvq = probeCvq(dev, p, info);
            }
        } catch (SyscallException e) {
            if (e.is(Errno.EBUSY)) {
                p.heldBy = sys.holdersOf(p.node);
                if (p.heldBy.isEmpty()) {
                    p.heldBy = List.of("another process");
                }
            } else {
                p.unavailable.add("open " + p.node + ": " + e.errnoName());
            }
        }
        return p;
    }

    /**
     * Where the control queue lands, read as QEMU 10.0's net/vhost-vdpa.c vhost_vdpa_probe_cvq_isolation
     * reads it: ACKNOWLEDGE|DRIVER, every offered feature, FEATURES_OK, the groups of the control queue
     * (index 2 × queue pairs) and of every data queue, then a reset. Only on a node this command opened
     * (nobody else's device state is touched: the open itself reset it).
     */
    private static MigrationFacts.Cvq probeCvq(VhostVdpaDevice dev, VhostPart p, VdpaDevInfo info) {
        int cvqIndex = 2 * queuePairs(dev, p.features);
        if (!p.backend.has(BackendFeature.IOTLB_ASID)) {
            return new MigrationFacts.Cvq(cvqIndex, null, false, "the backend does not offer VHOST_BACKEND_F_IOTLB_ASID");
        }
        try {
            dev.setOwner();
            dev.setStatus(DeviceStatus.of(DeviceStatus.ACKNOWLEDGE, DeviceStatus.DRIVER));
            dev.setFeatures(p.features);
            dev.addStatus(DeviceStatus.FEATURES_OK);
            int cvqGroup = dev.getVringGroup(cvqIndex);
            String shared = null;
            for (int vq = 0; vq < cvqIndex && shared == null; vq++) {
                if (dev.getVringGroup(vq) == cvqGroup) {
                    shared = "data virtqueue " + vq + " shares the control queue's group " + cvqGroup;
                }
            }
            if (shared != null) {
                return new MigrationFacts.Cvq(cvqIndex, cvqGroup, false, shared);
            }
            if (p.ases != null && p.ases < 2) {
                return new MigrationFacts.Cvq(cvqIndex, cvqGroup, false, "the device has " + p.ases + " address space");
            }
            return new MigrationFacts.Cvq(cvqIndex, cvqGroup, true, null);
        } catch (SyscallException e) {
            return new MigrationFacts.Cvq(cvqIndex, null, e.is(Errno.EOPNOTSUPP) || e.is(Errno.ENOTTY) ? false : null,
                    "VHOST_VDPA_GET_VRING_GROUP after FEATURES_OK: " + e.errnoName());
        } finally {
            try {
                dev.reset();
            } catch (SyscallException e) {
                p.unavailable.add("reset after the control-queue probe: " + e.errnoName());
            }
        }
    }

    /** max_virtqueue_pairs with VIRTIO_NET_F_MQ offered, else 1 (QEMU's vhost_vdpa_get_max_queue_pairs). */
    private static int queuePairs(VhostVdpaDevice dev, long features) {
        if ((features & QemuRules.mask("VIRTIO_NET_F_MQ")) == 0) {
            return 1;
        }
        byte[] b = dev.getConfig(8, 2); // struct virtio_net_config: mac[6], status, max_virtqueue_pairs (le16)
        return (b[0] & 0xff) | (b[1] & 0xff) << 8;
    }

    private static Integer optional(IntSupplier q, String what, VhostPart p) {
        try {
            return q.getAsInt();
        } catch (SyscallException e) {
            p.unavailable.add(what + ": " + e.errnoName());
            return null;
        }
    }

    private MigrationFacts.DeviceFacts device(VdpaDevInfo info, DevConfig config, VhostPart p, VhostPart sibling) {
        int id = info.deviceId();
        Long offered = p.features != null ? p.features : config.deviceFeatures();
        List<String> unavailable = new ArrayList<>(p.unavailable);
        BackendFeatures backend = p.backend;
        String backendFrom = null;
        MigrationFacts.Cvq cvq = p.cvq;
        Integer groups = p.groups;
        Integer ases = p.ases;
        if (backend == null && sibling != null && !p.heldBy.isEmpty()) {
            backend = sibling.backend;
            groups = sibling.groups;
            ases = sibling.ases;
            cvq = sibling.cvq;
            backendFrom = siblingName(sibling);
        }
        var net = config.net();
        return new MigrationFacts.DeviceFacts(info.name(), p.node, VirtioDeviceId.nameOf(id), info.mgmtHandle(), driver(info), null,
                pinsMemory(info), offered == null ? "0x0" : hex(offered), offered == null ? List.of() : new VirtioFeatures(offered, id).names(),
                config.negotiatedFeatures() == null ? null : hex(config.negotiatedFeatures()),
                config.negotiatedFeatures() == null ? null : new VirtioFeatures(config.negotiatedFeatures(), id).names(),
                p.status, net == null ? null : net.mac(), net == null ? null : net.mtu(), net == null ? null : net.maxVirtqueuePairs(),
                backend == null ? null : hex(backend.bits()), backend == null ? List.of() : backend.names(), backendFrom,
                groups, ases, cvq, p.heldBy, unavailable);
    }

    private static String siblingName(VhostPart sibling) {
        return sibling.node;
    }

    /** The vDPA driver: vdpa_sim and VDUSE by their management devices, PCI devices by vendor (mlx5 for Mellanox). */
    private static String driver(VdpaDevInfo info) {
        String m = info.mgmtDevName();
        if (m.startsWith("vdpasim_")) {
            return "vdpa_sim";
        }
        if (m.equals("vduse")) {
            return "vduse";
        }
        if (info.vendorId() != null && info.vendorId() == MELLANOX) {
            return "mlx5_vdpa";
        }
        return null;
    }

    /**
     * vhost-vdpa pins the VM's memory unless the driver takes user virtual addresses (use_va): vdpa_sim
     * with its default use_va=true and VDUSE do (drivers/vhost/vdpa.c vhost_vdpa_process_iotlb_update:
     * vhost_vdpa_va_map vs vhost_vdpa_pa_map).
     */
    private boolean pinsMemory(VdpaDevInfo info) {
        String d = driver(info);
        if ("vduse".equals(d)) {
            return false;
        }
        if ("vdpa_sim".equals(d)) {
            if (ctx.simulated()) {
                return false;
            }
            return host.moduleParameter("vdpa_sim", "use_va").map(v -> v.equals("N")).orElse(false);
        }
        return true;
    }

    private static String hex(long v) {
        return "0x" + Long.toHexString(v);
    }
}
