package org.vdpactl.cli.migrate;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.vdpactl.abi.UapiIoctl;
import org.vdpactl.cli.KernelFeatures;
import org.vdpactl.cli.Sizes;
import org.vdpactl.cli.migrate.MigrationFacts.DeviceFacts;
import org.vdpactl.cli.migrate.PairReport.Finding;
import org.vdpactl.cli.migrate.PairReport.MigrationPath;
import org.vdpactl.cli.migrate.PairReport.Rehearsal;
import org.vdpactl.vhost.BackendFeature;
import org.vdpactl.vhost.BackendFeatures;

/**
 * The rules of {@code migrate check}: one source device, the destination device it would move to,
 * the QEMU of each host ({@link QemuRules}) and the VM's options. Each rule names the QEMU (or kernel)
 * function it comes from; docs/migrate.md lists them with their ids.
 *
 * @param xsvq        the VM's -netdev vhost-vdpa has x-svq=on
 * @param memoryBytes the VM's memory (what a PA-mode destination pins)
 */
record PairCheck(MigrationFacts srcHost, MigrationFacts dstHost, boolean xsvq, long memoryBytes) {

    PairReport check(DeviceFacts s, String dstName) {
        List<Finding> blockers = new ArrayList<>();
        List<Finding> warnings = new ArrayList<>();
        Optional<DeviceFacts> found = dstHost.device(dstName);
        if (found.isEmpty()) {
            blockers.add(new Finding("missing", "the destination host " + dstHost.host() + " has no vDPA device " + dstName,
                    "create it alike: vdpactl dev add " + dstName + " --mgmtdev MGMTDEV" + provisioning(s)
                            + ", or name the pair with --pair " + s.name() + ":DEST", "vdpa netlink VDPA_CMD_DEV_GET"));
            return new PairReport(s.name(), dstName, PairReport.BLOCKED, blockers, null, warnings);
        }
        DeviceFacts d = found.get();
        if (!s.type().equals(d.type())) {
            blockers.add(new Finding("type", s.name() + " is a " + s.type() + " device, " + d.name() + " a " + d.type() + " device",
                    "pair it with a " + s.type() + " device (--pair " + s.name() + ":DEST)", "virtio device id"));
            return new PairReport(s.name(), d.name(), PairReport.BLOCKED, blockers, null, warnings);
        }
        if (!s.type().equals("net")) {
            warnings.add(new Finding("not-net", "only net devices' migration paths are checked (" + s.name() + " is " + s.type() + ")",
                    "check this device's migration by hand", "QEMU net/vhost-vdpa.c"));
            return new PairReport(s.name(), d.name(), PairReport.WARNINGS, blockers, null, warnings);
        }
        if (!d.heldBy().isEmpty()) {
            blockers.add(new Finding("held", d.name() + " on " + dstHost.host() + " is held open by " + String.join(", ", d.heldBy())
                    + ": vhost-vdpa allows one opener, so the destination QEMU cannot open it",
                    "stop the process holding it, or pick another destination device (--pair " + s.name() + ":DEST)",
                    "drivers/vhost/vdpa.c vhost_vdpa_open (EBUSY)"));
        }
        Optional<QemuRules.Match> rsm = rules(srcHost, "source", warnings, blockers);
        Optional<QemuRules.Match> rdm = rules(dstHost, "destination", warnings, blockers);
        long guest = guestFeatures(s, rsm.map(QemuRules.Match::rules).orElse(null), warnings);
        deviceRules(s, d, guest, rdm.map(QemuRules.Match::rules).orElse(null), blockers);
        memlock(d, blockers, warnings);
        MigrationPath path = null;
        if (rsm.isPresent() && rdm.isPresent()) {
            path = path(s, d, guest, rsm.get().rules(), rdm.get().rules(), blockers, warnings);
        }
        mac(s, d, guest, path == null ? "passthrough" : path.cvq(), blockers);
        String verdict = !blockers.isEmpty() ? PairReport.BLOCKED : !warnings.isEmpty() ? PairReport.WARNINGS : PairReport.COMPATIBLE;
        return new PairReport(s.name(), d.name(), verdict, blockers, path, warnings);
    }

    private static Optional<QemuRules.Match> rules(MigrationFacts host, String side, List<Finding> warnings, List<Finding> blockers) {
        String v = host.qemu() == null ? null : host.qemu().version();
        Optional<QemuRules.Match> m = QemuRules.forVersion(v);
        String known = String.join(", ", QemuRules.TABLE.stream().map(QemuRules::version).toList());
        if (m.isEmpty()) {
            blockers.add(new Finding("qemu", v == null ? "no QEMU version for the " + side + " host " + host.host()
                    + ": the migration path cannot be decided" : "QEMU " + v + " on the " + side + " host is older than every version read ("
                    + known + ")", "give it with --" + (side.equals("source") ? "source" : "dest") + "-qemu VERSION, or write the facts with"
                    + " `vdpactl migrate facts --qemu-version VERSION`", "docs/migrate.md (the rules table)"));
        } else if (!m.get().exact()) {
            warnings.add(new Finding("qemu-version", "QEMU " + v + " on the " + side + " host is not in the rules table (" + known
                    + "): the rules of " + m.get().rules().version() + ", the newest older row, are used",
                    "confirm the path in a lane run of QEMU " + v + " and add its row to QemuRules", "docs/migrate.md (the rules table)"));
        }
        return m;
    }

    /** What the guest negotiated, or (no guest yet) what it could negotiate: everything QEMU takes from the device. */
    private static long guestFeatures(DeviceFacts s, QemuRules rs, List<Finding> warnings) {
        Long negotiated = s.negotiatedBits();
        if (negotiated != null) {
            return negotiated;
        }
        warnings.add(new Finding("no-guest", "no guest driver has negotiated features on " + s.name()
                + " (VDPA_ATTR_DEV_NEGOTIATED_FEATURES absent): checked what a guest could negotiate, every feature it offers",
                "write the source's facts while its VM runs for the guest's own features", "drivers/vdpa/vdpa.c vdpa_dev_net_config_fill"));
        return rs == null ? s.featureBits() : s.featureBits() & rs.hostFeatureBits();
    }

    private void deviceRules(DeviceFacts s, DeviceFacts d, long guest, QemuRules rd, List<Finding> blockers) {
        long taken = rd == null ? guest : guest & rd.hostFeatureBits();
        long missing = taken & ~d.featureBits();
        if (missing != 0) {
            blockers.add(new Finding("features", "the guest negotiated " + String.join(", ", QemuRules.names(missing)) + ", which "
                    + d.name() + " does not offer: the destination refuses the device state (\"Features 0x.. unsupported\")",
                    "re-create " + d.name() + " offering them (vdpactl dev add " + d.name() + " --mgmtdev " + d.mgmtdev() + " --features "
                            + hex(d.featureBits() | missing) + ", if " + d.mgmtdev() + " supports them), or start the VM with them off",
                    "QEMU hw/virtio/virtio.c virtio_load; net/vhost-vdpa.c vdpa_feature_bits"));
        }
        int qs = s.qemuQueuePairs();
        int qd = d.qemuQueuePairs();
        if (qs != qd) {
            blockers.add(new Finding("queue-pairs", "QEMU gives the guest " + qs + " queue pair(s) on " + s.name() + " and would give "
                    + qd + " on " + d.name() + ": virtio-net's state needs them equal",
                    "re-create " + d.name() + " with --max-vqp " + qs + " (and VIRTIO_NET_F_MQ offered as on " + s.name() + ")",
                    "QEMU hw/net/virtio-net.c vmstate_virtio_net_device (max_queue_pairs: vmstate_info_uint16_equal);"
                            + " net/vhost-vdpa.c vhost_vdpa_get_max_queue_pairs"));
        }
        long mtuBit = QemuRules.mask("VIRTIO_NET_F_MTU");
        if ((guest & mtuBit) != 0 && s.mtu() != null && d.mtu() != null && d.mtu() < s.mtu()) {
            blockers.add(new Finding("mtu", "the guest uses MTU " + s.mtu() + " (VIRTIO_NET_F_MTU), " + d.name() + "'s is " + d.mtu()
                    + ": QEMU passes the destination's config space through, and frames above " + d.mtu() + " are dropped",
                    "re-create " + d.name() + " with --mtu " + s.mtu(), "QEMU hw/net/virtio-net.c virtio_net_get_config (vhost_net_get_config)"));
        }
    }

    private void memlock(DeviceFacts d, List<Finding> blockers, List<Finding> warnings) {
        if (!d.pinsMemory() || dstHost.capIpcLock()) {
            return;
        }
        MigrationFacts.Memlock m = dstHost.memlock();
        String size = Sizes.format(memoryBytes);
        if (m == null) {
            warnings.add(new Finding("memlock-unknown", d.name() + " (" + d.driver() + ") pins the VM's memory, and the destination's"
                    + " RLIMIT_MEMLOCK is unknown", "make sure QEMU on " + dstHost.host() + " may lock " + size,
                    "drivers/vhost/vdpa.c vhost_vdpa_pa_map"));
            return;
        }
        if (m.softBytes() != -1 && m.softBytes() < memoryBytes) {
            blockers.add(new Finding("memlock", d.name() + " (" + d.driver() + ") pins the VM's " + size + " but RLIMIT_MEMLOCK on "
                    + dstHost.host() + " is " + Sizes.format(m.softBytes()) + " without CAP_IPC_LOCK: the destination's"
                    + " IOTLB updates fail with ENOMEM", "raise QEMU's RLIMIT_MEMLOCK on " + dstHost.host() + " to at least " + size
                    + " (libvirt: <memtune><hard_limit>; systemd: LimitMEMLOCK=; ulimit -l) or give it CAP_IPC_LOCK (the limit"
                    + " read is that of the process that wrote the facts)", "drivers/vhost/vdpa.c vhost_vdpa_pa_map"));
        }
    }

    private MigrationPath path(DeviceFacts s, DeviceFacts d, long guest, QemuRules rs, QemuRules rd, List<Finding> blockers,
                               List<Finding> warnings) {
        List<String> why = new ArrayList<>();
        List<Rehearsal> rehearsal = new ArrayList<>();
        String svq;
        if (xsvq) {
            svq = "x-svq";
            why.add("SVQ: x-svq=on: every virtqueue is shadowed from boot, the migration needs no switch (QEMU "
                    + rs.version() + " hw/virtio/vhost-vdpa.c vhost_vdpa_get_features offers VHOST_F_LOG_ALL)");
            svqFeatures(s, rs, "refuses -netdev vhost-vdpa,x-svq=on", "net/vhost-vdpa.c net_init_vhost_vdpa", blockers);
            svqFeatures(d, rd, "refuses -netdev vhost-vdpa,x-svq=on", "net/vhost-vdpa.c net_init_vhost_vdpa", blockers);
            rehearsal.add(new Rehearsal("the stop-and-copy to a destination that starts shadowed",
                    "vdpactl rehearse " + s.name() + " --dest DEST --strategy svq"));
        } else if (rs.needsXsvq()) {
            svq = "required";
            why.add("SVQ: required: QEMU " + rs.version() + " offers VHOST_F_LOG_ALL only with x-svq=on, and vhost-vdpa devices log"
                    + " no dirty pages themselves");
            blockers.add(new Finding("needs-x-svq", "QEMU " + rs.version() + " blocks the migration without x-svq=on (\"Migration disabled:"
                    + " vhost lacks VHOST_F_LOG_ALL feature.\")", "start the VM with -netdev vhost-vdpa,...,x-svq=on on both hosts and"
                    + " check again with --x-svq, or move to QEMU 8.0 or later (it switches to SVQ only for the migration)",
                    "QEMU " + rs.version() + " hw/virtio/vhost-vdpa.c vhost_vdpa_get_features; hw/virtio/vhost.c vhost_dev_init"));
        } else {
            svq = "at-migration-start";
            why.add("SVQ: at migration start: QEMU " + rs.version() + " stops " + s.name() + " and restarts it on shadow virtqueues when"
                    + " the migration starts, and back if it fails (net/vhost-vdpa.c vdpa_net_migration_state_notifier →"
                    + " vhost_vdpa_net_log_global_enable)");
            svqFeatures(s, rs, "blocks the migration", "net/vhost-vdpa.c net_vhost_vdpa_init → vhost_vdpa_net_valid_svq_features", blockers);
            rehearsal.add(new Rehearsal("the switch to SVQ when the migration starts (a stop and restart in place)",
                    "vdpactl rehearse " + s.name() + " --strategy svq --window in-place"));
            rehearsal.add(new Rehearsal("the stop-and-copy to a destination that starts without SVQ",
                    "vdpactl rehearse " + s.name() + " --dest DEST --strategy serial"));
        }
        String stop = stop(s, rs, why, warnings);
        String cvq = cvq(d, guest, rd, why, warnings);
        why.add("rollback: QEMU " + rs.version() + " never issues VHOST_VDPA_RESUME: a failed migration resets and restarts "
                + s.name() + " (" + (rs.switchesToSvq() ? "vhost_vdpa_net_log_global_enable(false): vhost_net_stop, vhost_net_start"
                : "vm_start → vhost_dev_start") + ")" + resumeNote(s));
        return new MigrationPath(rs.version(), rd.version(), svq, stop, cvq, false, why, rehearsal);
    }

    private static String resumeNote(DeviceFacts s) {
        Long b = s.backendBits();
        return b != null && new BackendFeatures(b).has(BackendFeature.RESUME) ? "; the device offers RESUME, which vdpactl's rehearsal uses"
                : "";
    }

    private static void svqFeatures(DeviceFacts dev, QemuRules r, String effect, String where, List<Finding> blockers) {
        List<String> problems = r.svqProblems(dev.featureBits());
        if (!problems.isEmpty()) {
            blockers.add(new Finding("svq-features", "QEMU " + r.version() + " " + effect + " on " + dev.name() + ": shadow virtqueues cannot"
                    + " handle " + String.join(", ", problems), "re-create " + dev.name() + " without them (vdpactl dev add " + dev.name()
                    + " --mgmtdev " + dev.mgmtdev() + " --features " + hex(dev.featureBits() & ~bitsOf(problems)) + ")",
                    "QEMU " + r.version() + " " + where + "; hw/virtio/vhost-shadow-virtqueue.c vhost_svq_valid_features"));
        }
    }

    private static long bitsOf(List<String> names) {
        long m = 0;
        for (String n : names) {
            if (!n.startsWith("no ") && !n.startsWith("bit ")) {
                m |= QemuRules.mask(n);
            }
        }
        return m;
    }

    private static String stop(DeviceFacts s, QemuRules rs, List<String> why, List<Finding> warnings) {
        if (!rs.suspendsAtStop()) {
            why.add("stop: reset: QEMU " + rs.version() + " never suspends; it stops " + s.name() + " by a reset and reads the ring state"
                    + " from guest memory (hw/virtio/vhost-vdpa.c vhost_vdpa_dev_start(false) → vhost_vdpa_reset_device)");
            return "reset";
        }
        Long b = s.backendBits();
        if (b == null) {
            warnings.add(new Finding("backend-unknown", s.name() + "'s backend features could not be read (" + (s.heldBy().isEmpty()
                    ? String.join("; ", s.unavailable()) : "held by " + String.join(", ", s.heldBy())) + "): SUSPEND or reset is unknown",
                    "write the source's facts with a free device of the same management device, or before its VM starts",
                    "VHOST_GET_BACKEND_FEATURES"));
            why.add("stop: unknown (backend features not read)");
            return "unknown";
        }
        if (new BackendFeatures(b).has(BackendFeature.SUSPEND)) {
            why.add("stop: SUSPEND: " + s.name() + " offers VHOST_BACKEND_F_SUSPEND, QEMU " + rs.version() + " acks it and suspends"
                    + " (hw/virtio/vhost-vdpa.c vhost_vdpa_set_backend_cap, vhost_vdpa_suspend)");
            return "suspend";
        }
        warnings.add(new Finding("reset-at-stop", s.name() + " offers no VHOST_BACKEND_F_SUSPEND: QEMU " + rs.version() + " stops it by a"
                + " reset, loses its in-flight requests and does not trust its ring indexes",
                "use a kernel with VHOST_VDPA_SUSPEND (" + KernelFeatures.profiledWith(UapiIoctl.VHOST_VDPA_SUSPEND)
                        + ") and a driver with a suspend op",
                "QEMU " + rs.version() + " hw/virtio/vhost-vdpa.c vhost_vdpa_suspend, vhost_vdpa_get_vring_base"));
        why.add("stop: reset (no SUSPEND offered; vhost_vdpa_suspend falls back to vhost_vdpa_reset_device)");
        return "reset";
    }

    private String cvq(DeviceFacts d, long guest, QemuRules rd, List<String> why, List<Finding> warnings) {
        if ((guest & QemuRules.mask("VIRTIO_NET_F_CTRL_VQ")) == 0) {
            why.add("CVQ: none negotiated");
            return "none";
        }
        String replay = String.join(", ", rd.cvqReplay());
        if (xsvq) {
            why.add("CVQ: shadowed with every virtqueue in address space 0; at the destination QEMU " + rd.version() + " replays the"
                    + " guest's " + replay + " through it (net/vhost-vdpa.c " + (rd.switchesToSvq() ? "vhost_vdpa_net_cvq_load" : "vhost_vdpa_net_load") + ")");
            return "shadowed";
        }
        if (rd.isolatesCvq() && d.cvq() != null && Boolean.TRUE.equals(d.cvq().isolable())) {
            why.add("CVQ: isolated: " + d.name() + "'s control queue (vq " + d.cvq().index() + ", group " + d.cvq().group() + ") gets address"
                    + " space 1 and is shadowed; QEMU " + rd.version() + " replays the guest's " + replay + " through it"
                    + " (net/vhost-vdpa.c vhost_vdpa_probe_cvq_isolation, vhost_vdpa_net_cvq_start, vhost_vdpa_net_cvq_load)");
            return "isolated";
        }
        String reason = !rd.isolatesCvq() ? "QEMU " + rd.version() + " gives no control queue its own address space"
                : d.cvq() == null ? "its control queue was not probed" : d.cvq().reason();
        String mq = (guest & QemuRules.mask("VIRTIO_NET_F_MQ")) != 0 && d.qemuQueuePairs() > 1
                ? "; the guest's active queue pairs fall back to the device's default of 1" : "";
        warnings.add(new Finding("cvq-passthrough", d.name() + "'s control queue cannot be isolated (" + reason + "): QEMU " + rd.version()
                + " starts it passthrough after the migration and replays none of the guest's control-queue state (" + replay + ")" + mq,
                "use a destination device whose control queue has its own group and a second address space on a kernel offering"
                        + " VHOST_BACKEND_F_IOTLB_ASID, or start the VM with x-svq=on",
                "QEMU " + rd.version() + " net/vhost-vdpa.c vhost_vdpa_net_cvq_start, vhost_vdpa_net_cvq_load"));
        why.add("CVQ: passthrough (" + reason + ")");
        return "passthrough";
    }

    /** The MAC rule needs the path's CVQ decision: run after {@link #check}'s path. */
    static void mac(DeviceFacts s, DeviceFacts d, long guest, String cvq, List<Finding> blockers) {
        if (s.mac() == null || s.mac().equalsIgnoreCase(String.valueOf(d.mac()))) {
            return;
        }
        if (takesQemusMacAtStart(d)) {
            return;
        }
        boolean viaCvq = (guest & QemuRules.mask("VIRTIO_NET_F_CTRL_MAC_ADDR")) != 0 && (cvq.equals("isolated") || cvq.equals("shadowed"));
        if (!viaCvq) {
            String why = (guest & QemuRules.mask("VIRTIO_NET_F_CTRL_MAC_ADDR")) == 0 ? "the guest did not negotiate VIRTIO_NET_F_CTRL_MAC_ADDR"
                    : "the destination's control queue is not shadowed";
            blockers.add(new Finding("mac", "the guest's MAC " + s.mac() + " is not " + d.name() + "'s (" + (d.mac() == null ? "none" : d.mac())
                    + ") and QEMU cannot give it (" + why + ")", "vdpactl dev set " + d.name() + " --mac " + s.mac()
                    + " (Linux 6.12+), or re-create " + d.name() + " with --mac " + s.mac(),
                    "QEMU net/vhost-vdpa.c vhost_vdpa_net_load_mac"));
        }
    }

    /**
     * True when the destination QEMU gives the device the VM's MAC before the migration: QEMU's
     * hw/net/virtio-net.c virtio_net_device_realize writes its NIC's MAC (-device mac=, the same on both
     * hosts of a VM) into a vhost-vdpa device's config space (vhost_net_set_config, 6 bytes at offset 0:
     * VHOST_VDPA_SET_CONFIG) in 7.2 and 10.0 alike, and a driver whose set_config op stores it shows the
     * guest that MAC. vdpa_sim's does (drivers/vdpa/vdpa_sim/vdpa_sim.c vdpasim_set_config copies into its
     * config); mlx5_vdpa's (mlx5_vdpa_set_config) and VDUSE's (vduse_vdpa_set_config) ignore the write, so
     * there the device's own MAC stays unless the control queue replays it. The lane checks it against both
     * QEMUs (MigrateCheckAgainstQemuKernelTest's "mac" case: two vdpa_sim devices of different MACs, no
     * CTRL_MAC_ADDR; the guest reads its MAC before and after the migration).
     */
    static boolean takesQemusMacAtStart(DeviceFacts d) {
        return "vdpa_sim".equals(d.driver());
    }

    private static String provisioning(DeviceFacts s) {
        StringBuilder b = new StringBuilder();
        if (s.mac() != null) {
            b.append(" --mac ").append(s.mac());
        }
        if (s.mtu() != null) {
            b.append(" --mtu ").append(s.mtu());
        }
        if (s.offers("VIRTIO_NET_F_MQ") && s.maxVqPairs() != null) {
            b.append(" --max-vqp ").append(s.maxVqPairs());
        }
        return b.append(" --features ").append(hex(s.featureBits())).toString();
    }

    private static String hex(long v) {
        return "0x" + Long.toHexString(v);
    }
}
