package org.vdpactl.cli.migrate;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.vdpactl.vhost.VirtioDeviceId;
import org.vdpactl.vhost.VirtioFeatures;

/**
 * How one QEMU version migrates a vhost-vdpa net device: the facts {@link PairCheck} decides a path
 * with, one row per QEMU version read (the table is the one place to add a version, e.g. from the
 * lane's records of the qemu helper's measurements). Each field names the QEMU function it was read
 * from; the sources are Debian's QEMU packages (7.2+dfsg-7+deb12u18 with its stable patches,
 * 10.0.13+ds-0+deb13u1), the versions the lane runs.
 *
 * @param version             "7.2", "10.0": major.minor
 * @param hostFeatureBits     net/vhost-vdpa.c vdpa_feature_bits: the guest features QEMU takes from the
 *                            device (vhost_net_get_features masks each by the device's offer); a guest
 *                            feature among them must be offered by the destination device, or
 *                            hw/virtio/virtio.c virtio_load refuses the stream ("Features 0x.. unsupported")
 * @param svqDeviceFeatures   net/vhost-vdpa.c vdpa_svq_device_features: the device features shadow
 *                            virtqueues handle (transport bits are checked by vhost_svq_valid_features)
 * @param transportEnd        VIRTIO_TRANSPORT_F_END of QEMU's copy of virtio_config.h (the last bit
 *                            hw/virtio/vhost-shadow-virtqueue.c vhost_svq_valid_features checks)
 * @param needsXsvq           true when QEMU offers VHOST_F_LOG_ALL only with x-svq=on
 *                            (hw/virtio/vhost-vdpa.c vhost_vdpa_get_features), so that
 *                            hw/virtio/vhost.c vhost_dev_init blocks migration without it
 * @param switchesToSvq       true when QEMU switches the source to shadow virtqueues at migration start
 *                            (net/vhost-vdpa.c vdpa_net_migration_state_notifier → vhost_vdpa_net_log_global_enable:
 *                            vhost_net_stop then vhost_net_start) and back when the migration fails
 * @param suspendsAtStop      true when QEMU acks VHOST_BACKEND_F_SUSPEND (vhost_vdpa_set_backend_cap) and
 *                            stops with VHOST_VDPA_SUSPEND (vhost_vdpa_dev_start(false) → vhost_vdpa_suspend);
 *                            else, or without the feature, the stop is a reset (vhost_vdpa_reset_device)
 * @param isolatesCvq         true when QEMU puts the control queue in address space 1 where the device can
 *                            (net/vhost-vdpa.c vhost_vdpa_probe_cvq_isolation, vhost_vdpa_net_cvq_start)
 * @param usesResume          true when QEMU issues VHOST_VDPA_RESUME (neither version does: a failed
 *                            migration restarts the source device)
 * @param cvqReplay           what QEMU replays through a shadowed control queue when a device starts
 *                            (7.2 vhost_vdpa_net_load, 10.0 vhost_vdpa_net_cvq_load)
 */
public record QemuRules(String version, long hostFeatureBits, long svqDeviceFeatures, int transportEnd,
                        boolean needsXsvq, boolean switchesToSvq, boolean suspendsAtStop, boolean isolatesCvq,
                        boolean usesResume, List<String> cvqReplay) {

    private static final Map<String, Integer> BITS = new HashMap<>();

    static {
        for (int b = 0; b < 64; b++) {
            String name = VirtioFeatures.bitName(b, VirtioDeviceId.NET.id());
            if (!name.startsWith("bit ")) {
                BITS.put(name, b);
            }
        }
        BITS.put("VIRTIO_F_IOMMU_PLATFORM", BITS.get("VIRTIO_F_ACCESS_PLATFORM"));
    }

    /** The mask of named feature bits (the names of QEMU's lists, VIRTIO_F_IOMMU_PLATFORM included). */
    static long mask(String... names) {
        long m = 0;
        for (String n : names) {
            Integer b = BITS.get(n);
            if (b == null) {
                throw new IllegalStateException("unknown feature name " + n);
            }
            m |= 1L << b;
        }
        return m;
    }

    /** QEMU 7.2 (Debian 12's 7.2+dfsg-7+deb12u18, stable patches up to 7.2.22 applied). */
    static final QemuRules QEMU_7_2 = new QemuRules("7.2",
            // net/vhost-vdpa.c vdpa_feature_bits (7.2)
            mask("VIRTIO_F_NOTIFY_ON_EMPTY", "VIRTIO_RING_F_INDIRECT_DESC", "VIRTIO_RING_F_EVENT_IDX", "VIRTIO_F_ANY_LAYOUT",
                    "VIRTIO_F_VERSION_1", "VIRTIO_NET_F_CSUM", "VIRTIO_NET_F_GUEST_CSUM", "VIRTIO_NET_F_CTRL_GUEST_OFFLOADS",
                    "VIRTIO_NET_F_GSO", "VIRTIO_NET_F_GUEST_TSO4", "VIRTIO_NET_F_GUEST_TSO6", "VIRTIO_NET_F_GUEST_ECN",
                    "VIRTIO_NET_F_GUEST_UFO", "VIRTIO_NET_F_HOST_TSO4", "VIRTIO_NET_F_HOST_TSO6", "VIRTIO_NET_F_HOST_ECN",
                    "VIRTIO_NET_F_HOST_UFO", "VIRTIO_NET_F_MRG_RXBUF", "VIRTIO_NET_F_MTU", "VIRTIO_NET_F_CTRL_RX",
                    "VIRTIO_NET_F_CTRL_RX_EXTRA", "VIRTIO_NET_F_CTRL_VLAN", "VIRTIO_NET_F_CTRL_MAC_ADDR", "VIRTIO_NET_F_RSS",
                    "VIRTIO_NET_F_MQ", "VIRTIO_NET_F_CTRL_VQ", "VIRTIO_F_IOMMU_PLATFORM", "VIRTIO_F_RING_PACKED",
                    "VIRTIO_F_RING_RESET", "VIRTIO_NET_F_HASH_REPORT", "VIRTIO_NET_F_GUEST_ANNOUNCE", "VIRTIO_NET_F_STATUS"),
            // net/vhost-vdpa.c vdpa_svq_device_features (7.2)
            mask("VIRTIO_NET_F_CSUM", "VIRTIO_NET_F_GUEST_CSUM", "VIRTIO_NET_F_MTU", "VIRTIO_NET_F_MAC", "VIRTIO_NET_F_GUEST_TSO4",
                    "VIRTIO_NET_F_GUEST_TSO6", "VIRTIO_NET_F_GUEST_ECN", "VIRTIO_NET_F_GUEST_UFO", "VIRTIO_NET_F_HOST_TSO4",
                    "VIRTIO_NET_F_HOST_TSO6", "VIRTIO_NET_F_HOST_ECN", "VIRTIO_NET_F_HOST_UFO", "VIRTIO_NET_F_MRG_RXBUF",
                    "VIRTIO_NET_F_STATUS", "VIRTIO_NET_F_CTRL_VQ", "VIRTIO_NET_F_MQ", "VIRTIO_F_ANY_LAYOUT",
                    "VIRTIO_NET_F_CTRL_MAC_ADDR", "VIRTIO_NET_F_RSC_EXT", "VIRTIO_NET_F_STANDBY"),
            41, true, false, false, false, false, List.of("MAC", "MQ"));

    /** QEMU 10.0 (Debian 13's 10.0.13+ds-0+deb13u1). */
    static final QemuRules QEMU_10_0 = new QemuRules("10.0",
            // net/vhost-vdpa.c vdpa_feature_bits (10.0)
            mask("VIRTIO_F_ANY_LAYOUT", "VIRTIO_F_IOMMU_PLATFORM", "VIRTIO_F_NOTIFY_ON_EMPTY", "VIRTIO_F_RING_PACKED",
                    "VIRTIO_F_RING_RESET", "VIRTIO_F_VERSION_1", "VIRTIO_F_IN_ORDER", "VIRTIO_F_NOTIFICATION_DATA",
                    "VIRTIO_NET_F_CSUM", "VIRTIO_NET_F_CTRL_GUEST_OFFLOADS", "VIRTIO_NET_F_CTRL_MAC_ADDR", "VIRTIO_NET_F_CTRL_RX",
                    "VIRTIO_NET_F_CTRL_RX_EXTRA", "VIRTIO_NET_F_CTRL_VLAN", "VIRTIO_NET_F_CTRL_VQ", "VIRTIO_NET_F_GSO",
                    "VIRTIO_NET_F_GUEST_CSUM", "VIRTIO_NET_F_GUEST_ECN", "VIRTIO_NET_F_GUEST_TSO4", "VIRTIO_NET_F_GUEST_TSO6",
                    "VIRTIO_NET_F_GUEST_UFO", "VIRTIO_NET_F_GUEST_USO4", "VIRTIO_NET_F_GUEST_USO6", "VIRTIO_NET_F_HASH_REPORT",
                    "VIRTIO_NET_F_HOST_ECN", "VIRTIO_NET_F_HOST_TSO4", "VIRTIO_NET_F_HOST_TSO6", "VIRTIO_NET_F_HOST_UFO",
                    "VIRTIO_NET_F_HOST_USO", "VIRTIO_NET_F_MQ", "VIRTIO_NET_F_MRG_RXBUF", "VIRTIO_NET_F_MTU",
                    "VIRTIO_NET_F_RSC_EXT", "VIRTIO_NET_F_RSS", "VIRTIO_NET_F_STATUS", "VIRTIO_RING_F_EVENT_IDX",
                    "VIRTIO_RING_F_INDIRECT_DESC"),
            // net/vhost-vdpa.c vdpa_svq_device_features (10.0; VHOST_F_LOG_ALL, bit 26, is no virtio feature of a device)
            mask("VIRTIO_NET_F_CSUM", "VIRTIO_NET_F_GUEST_CSUM", "VIRTIO_NET_F_CTRL_GUEST_OFFLOADS", "VIRTIO_NET_F_MTU",
                    "VIRTIO_NET_F_MAC", "VIRTIO_NET_F_GUEST_TSO4", "VIRTIO_NET_F_GUEST_TSO6", "VIRTIO_NET_F_GUEST_ECN",
                    "VIRTIO_NET_F_GUEST_UFO", "VIRTIO_NET_F_HOST_TSO4", "VIRTIO_NET_F_HOST_TSO6", "VIRTIO_NET_F_HOST_ECN",
                    "VIRTIO_NET_F_HOST_UFO", "VIRTIO_NET_F_MRG_RXBUF", "VIRTIO_NET_F_STATUS", "VIRTIO_NET_F_CTRL_VQ",
                    "VIRTIO_NET_F_CTRL_RX", "VIRTIO_NET_F_CTRL_VLAN", "VIRTIO_NET_F_CTRL_RX_EXTRA", "VIRTIO_NET_F_MQ",
                    "VIRTIO_F_ANY_LAYOUT", "VIRTIO_NET_F_CTRL_MAC_ADDR", "VIRTIO_NET_F_HASH_REPORT", "VIRTIO_NET_F_RSS",
                    "VIRTIO_NET_F_RSC_EXT", "VIRTIO_NET_F_STANDBY", "VIRTIO_NET_F_SPEED_DUPLEX") | (1L << 26),
            42, false, true, true, true, false, List.of("MAC", "MQ", "offloads", "RX mode", "VLANs"));

    /** Every version read, oldest first. */
    public static final List<QemuRules> TABLE = List.of(QEMU_7_2, QEMU_10_0);

    private static final Pattern VERSION = Pattern.compile("(\\d+)\\.(\\d+)");

    /**
     * The rules of a QEMU version: its own row, else the newest row older than it (with {@code exact}
     * false), else empty (older than every row, or no version).
     */
    public static Optional<Match> forVersion(String qemuVersion) {
        if (qemuVersion == null) {
            return Optional.empty();
        }
        Matcher m = VERSION.matcher(qemuVersion);
        if (!m.find()) {
            return Optional.empty();
        }
        int major = Integer.parseInt(m.group(1));
        int minor = Integer.parseInt(m.group(2));
        QemuRules best = null;
        for (QemuRules r : TABLE) {
            Matcher rm = VERSION.matcher(r.version);
            rm.find();
            int rmaj = Integer.parseInt(rm.group(1));
            int rmin = Integer.parseInt(rm.group(2));
            if (rmaj < major || (rmaj == major && rmin <= minor)) {
                best = r;
            }
        }
        if (best == null) {
            return Optional.empty();
        }
        return Optional.of(new Match(best, best.version.equals(major + "." + minor)));
    }

    /** A version's rules and whether the row is that version's own. */
    public record Match(QemuRules rules, boolean exact) {
    }

    /**
     * The device features shadow virtqueues cannot handle (empty when none): device-specific bits
     * outside {@link #svqDeviceFeatures} (net/vhost-vdpa.c vhost_vdpa_net_valid_svq_features), and the
     * transport bits vhost_svq_valid_features refuses: VERSION_1 and ACCESS_PLATFORM must be offered,
     * ANY_LAYOUT and EVENT_IDX may be, every other transport bit up to VIRTIO_TRANSPORT_F_END must not.
     */
    public List<String> svqProblems(long offered) {
        List<String> out = new ArrayList<>();
        long transport = ((1L << (transportEnd - 28)) - 1) << 28; // MAKE_64BIT_MASK(START, END - START)
        long invalid = offered & ~svqDeviceFeatures & ~transport;
        for (int b = 0; b < 64; b++) {
            if ((invalid & (1L << b)) != 0) {
                out.add(name(b));
            }
        }
        for (int b = 28; b <= transportEnd; b++) {
            boolean has = (offered & (1L << b)) != 0;
            if (b == BITS.get("VIRTIO_F_ANY_LAYOUT") || b == BITS.get("VIRTIO_RING_F_EVENT_IDX")) {
                continue;
            }
            if (b == BITS.get("VIRTIO_F_VERSION_1") || b == BITS.get("VIRTIO_F_ACCESS_PLATFORM")) {
                if (!has) {
                    out.add("no " + name(b));
                }
            } else if (has) {
                out.add(name(b));
            }
        }
        return out;
    }

    static String name(int bit) {
        return VirtioFeatures.bitName(bit, VirtioDeviceId.NET.id());
    }

    /** The names of the set bits of {@code bits}. */
    static List<String> names(long bits) {
        return new VirtioFeatures(bits, VirtioDeviceId.NET.id()).names();
    }
}
