package org.vdpactl.mgmt;

import java.util.List;
import org.vdpactl.vhost.BlkConfig;
import org.vdpactl.vhost.NetConfig;
import org.vdpactl.vhost.VirtioDeviceId;

/**
 * The plain-text output of iproute2's {@code vdpa} ("vdpasim_net:" blocks, one line per device),
 * for humans. Trailing spaces are dropped; device names that would print like another name are escaped
 * ({@link ShownNames}); the rest reads as iproute2 prints it.
 */
public final class IprouteText {
    private IprouteText() {
    }

    /** {@code vdpa mgmtdev show}. */
    public static String mgmtdevs(List<MgmtDevInfo> mgmtdevs) {
        StringBuilder sb = new StringBuilder();
        for (MgmtDevInfo m : mgmtdevs) {
            sb.append(m.handle()).append(":\n  supported_classes");
            m.classIds().forEach(id -> sb.append(' ').append(VirtioNames.className(id)));
            sb.append('\n');
            if (m.maxSupportedVqs() != null) {
                sb.append("  max_supported_vqs ").append(Integer.toUnsignedString(m.maxSupportedVqs())).append('\n');
            }
            if (m.supportedFeatures() != null) {
                int namedAs = m.supportsClass(VirtioDeviceId.NET.id()) ? VirtioDeviceId.NET.id()
                        : m.supportsClass(VirtioDeviceId.BLOCK.id()) ? VirtioDeviceId.BLOCK.id() : 0;
                sb.append("  dev_features");
                VirtioNames.featureNames(m.supportedFeatures(), namedAs).forEach(n -> sb.append(' ').append(n));
                sb.append('\n');
            }
        }
        return sb.toString();
    }

    /** {@code vdpa dev show}. */
    public static String devs(List<VdpaDevInfo> devs) {
        StringBuilder sb = new StringBuilder();
        for (VdpaDevInfo d : devs) {
            sb.append(ShownNames.text(d.name())).append(": type ").append(d.typeName()).append(" mgmtdev ").append(d.mgmtHandle());
            field(sb, "vendor_id", d.vendorId());
            field(sb, "max_vqs", d.maxVqs());
            field(sb, "max_vq_size", d.maxVqSize());
            sb.append('\n');
        }
        return sb.toString();
    }

    /** {@code vdpa dev config show}. */
    public static String configs(List<DevConfig> configs) {
        StringBuilder sb = new StringBuilder();
        for (DevConfig c : configs) {
            StringBuilder line = new StringBuilder(ShownNames.text(c.name())).append(':');
            if (c.net() != null) {
                NetConfig n = c.net();
                if (n.mac() != null) {
                    line.append(" mac ").append(n.mac());
                }
                if (n.status() != null) {
                    line.append(" link ").append(n.linkUp() ? "up" : "down").append(" link_announce ").append(n.announce());
                }
                field(line, "max_vq_pairs", n.maxVirtqueuePairs());
                field(line, "mtu", n.mtu());
            } else if (c.blk() != null) {
                BlkConfig b = c.blk();
                field(line, "capacity", b.capacity());
                field(line, "blk_size", b.blkSize());
                field(line, "seg_max", b.segMax());
                field(line, "num_queues", b.numQueues());
                if (c.readOnly() != null) {
                    line.append(" read_only ").append(c.readOnly());
                }
                if (c.flush() != null) {
                    line.append(" flush ").append(c.flush());
                }
            }
            sb.append(line).append('\n');
            if (c.negotiatedFeatures() != null) {
                sb.append("  negotiated_features");
                VirtioNames.featureNames(c.negotiatedFeatures(), c.deviceId()).forEach(n -> sb.append(' ').append(n));
                sb.append('\n');
            }
        }
        return sb.toString();
    }

    /** {@code vdpa dev vstats show DEV qidx N}. */
    public static String vstats(VendorStats s) {
        StringBuilder sb = new StringBuilder(ShownNames.text(s.name())).append(":");
        if (s.deviceId() == VirtioDeviceId.NET.id()) {
            sb.append(" queue_type ").append(s.queueType());
            for (VendorStats.Stat st : s.stats()) {
                sb.append(' ').append(st.name()).append(' ').append(Long.toUnsignedString(st.value()));
            }
        }
        return sb.append('\n').toString();
    }

    private static void field(StringBuilder sb, String key, Integer value) {
        if (value != null) {
            sb.append(' ').append(key).append(' ').append(Integer.toUnsignedString(value));
        }
    }

    private static void field(StringBuilder sb, String key, Long value) {
        if (value != null) {
            sb.append(' ').append(key).append(' ').append(Long.toUnsignedString(value));
        }
    }
}
