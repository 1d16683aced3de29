package org.vdpactl.vhost;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.IntSupplier;

import org.vdpactl.sys.Errno;

/**
 * A snapshot of what a vhost-vdpa device reports, for the CLI (text via {@link #toText()}, JSON by
 * serialising the record: every component is a string, number, list or nested record).
 * Queries the device does not support, and per-vq queries made without ownership, leave their field
 * null and add a line to {@link #unavailable()}. Bit words are hex strings so that bit 63 survives
 * JSON.
 *
 * @param device             node path or label
 * @param deviceId           virtio device id
 * @param deviceType         "net", "block", ...
 * @param features           offered virtio features, hex
 * @param featureNames       their names
 * @param backendFeatures    offered backend features, hex
 * @param backendFeatureNames their names
 * @param status             status byte
 * @param statusNames        its flags
 * @param vqCount            number of virtqueues
 * @param vringNumMax        maximum ring size
 * @param groupCount         number of vq groups
 * @param addressSpaceCount  number of address spaces
 * @param iovaFirst          IOVA range start, hex
 * @param iovaLast           IOVA range end (inclusive), hex
 * @param configSize         config space bytes
 * @param config             decoded config (only the fields its features make valid), or null
 * @param configError        why the config did not decode, or null
 * @param vqs                per-virtqueue facts
 * @param unavailable        "VHOST_VDPA_GET_VRING_SIZE: EOPNOTSUPP" lines (kept for schema version 1's readers)
 * @param unavailableCalls   the same as fields: call, errno number and name, whether SET_OWNER would help
 */
public record VhostInfo(String device, int deviceId, String deviceType, String features, List<String> featureNames,
        String backendFeatures, List<String> backendFeatureNames, int status, List<String> statusNames, int vqCount,
        int vringNumMax, Integer groupCount, Integer addressSpaceCount, String iovaFirst, String iovaLast, int configSize,
        DeviceConfig config, String configError, List<Vq> vqs, List<String> unavailable,
        List<UnavailableCall> unavailableCalls) {

    /**
     * A query the device did not answer, as fields a program can branch on without parsing a line.
     *
     * @param call          the ioctl's kernel name ({@code VHOST_VDPA_GET_VRING_SIZE})
     * @param errno         the errno number it failed with
     * @param errnoName     its symbol ({@code EOPNOTSUPP})
     * @param needsOwner    true when the answer needs SET_OWNER (EPERM before it)
     */
    public record UnavailableCall(String call, int errno, String errnoName, boolean needsOwner) {
    }

    /**
     * One virtqueue.
     *
     * @param index     vq index
     * @param group     GET_VRING_GROUP, or null
     * @param descGroup GET_VRING_DESC_GROUP, or null
     * @param size      GET_VRING_SIZE, or null
     */
    public record Vq(int index, Integer group, Integer descGroup, Integer size) {
    }

    /**
     * Queries everything. Does not change device state (no SET ioctl); per-vq answers need the
     * caller to be the owner ({@link VhostVdpaDevice#setOwner()} first), else they are null.
     */
    public static VhostInfo collect(VhostVdpaDevice dev) {
        List<UnavailableCall> unavailable = new ArrayList<>();
        int id = dev.getDeviceId();
        VirtioFeatures features = dev.getFeatures();
        BackendFeatures backend = dev.getBackendFeatures();
        DeviceStatus status = dev.getStatus();
        int vqCount = dev.getVqsCount();
        int numMax = dev.getVringNum();
        Integer groups = optional(VhostIoctl.VDPA_GET_GROUP_NUM, dev::getGroupNum, unavailable);
        Integer ases = optional(VhostIoctl.VDPA_GET_AS_NUM, dev::getAsNum, unavailable);
        IovaRange range = dev.getIovaRange();
        int configSize = dev.getConfigSize();
        DeviceConfig config = null;
        String configError = null;
        if (configSize > 0) {
            DecodeResult<DeviceConfig> decoded = VirtioConfigDecoder.decode(id, dev.getConfig(0, configSize));
            // only the fields the device's features make valid, as the kernel's `vdpa dev config show` does
            config = decoded.toOptional().map(c -> switch (c) {
                case NetConfig net -> (DeviceConfig) net.validFor(features.bits());
                case BlkConfig blk -> blk.validFor(features.bits());
                default -> c;
            }).orElse(null);
            configError = decoded.failure().map(ConfigParseError::toString).orElse(null);
        }
        List<Vq> vqs = new ArrayList<>();
        for (int i = 0; i < vqCount; i++) {
            int index = i;
            vqs.add(new Vq(i,
                    optional(VhostIoctl.VDPA_GET_VRING_GROUP, () -> dev.getVringGroup(index), unavailable),
                    optional(VhostIoctl.VDPA_GET_VRING_DESC_GROUP, () -> dev.getVringDescGroup(index), unavailable),
                    optional(VhostIoctl.VDPA_GET_VRING_SIZE, () -> dev.getVringSize(index), unavailable)));
        }
        return new VhostInfo(dev.label(), id, VirtioDeviceId.nameOf(id), hex(features.bits()), features.names(),
                hex(backend.bits()), backend.names(), status.bits(), status.names(), vqCount, numMax, groups, ases,
                hex(range.first()), hex(range.last()), configSize, config, configError, vqs,
                unavailable.stream().map(VhostInfo::line).toList(), List.copyOf(unavailable));
    }

    /** A query that may be unsupported (EOPNOTSUPP, ENOTTY) or need ownership (EPERM): null then. */
    private static Integer optional(VhostIoctl op, IntSupplier query, List<UnavailableCall> unavailable) {
        try {
            return query.getAsInt();
        } catch (VhostException e) {
            if (e.is(Errno.EOPNOTSUPP) || e.is(Errno.ENOTTY) || e.is(Errno.EPERM)) {
                UnavailableCall u = new UnavailableCall(op.kernelName(), e.errno(), e.errnoName(), e.is(Errno.EPERM));
                if (!unavailable.contains(u)) {
                    unavailable.add(u);
                }
                return null;
            }
            throw e;
        }
    }

    /** The line of schema version 1's {@code unavailable}: "VHOST_VDPA_GET_VRING_SIZE: EOPNOTSUPP". */
    private static String line(UnavailableCall u) {
        return u.call() + ": " + u.errnoName() + (u.needsOwner() ? " (needs SET_OWNER)" : "");
    }

    private static String hex(long v) {
        return "0x" + Long.toHexString(v);
    }

    /** Human-readable lines, one fact per line. */
    public String toText() {
        StringBuilder sb = new StringBuilder();
        line(sb, "device", device);
        line(sb, "type", deviceType + " (virtio id " + deviceId + ")");
        line(sb, "features", features + " " + String.join("|", featureNames));
        line(sb, "backend features", backendFeatures + " " + String.join("|", backendFeatureNames));
        line(sb, "status", new DeviceStatus(status).toString());
        line(sb, "virtqueues", vqCount + " (max ring size " + vringNumMax + ")");
        line(sb, "groups", groupCount == null ? "-" : groupCount.toString());
        line(sb, "address spaces", addressSpaceCount == null ? "-" : addressSpaceCount.toString());
        line(sb, "iova range", "[" + iovaFirst + ", " + iovaLast + "]");
        line(sb, "config size", Integer.toString(configSize));
        if (config != null) {
            sb.append("config:\n");
            Map<String, String> fields = ConfigFields.of(config);
            int w = fields.keySet().stream().mapToInt(String::length).max().orElse(0) + 1;
            fields.forEach((k, v) -> sb.append(String.format("  %-" + w + "s %s%n", k + ":", v)));
        }
        if (configError != null) {
            line(sb, "config error", configError);
        }
        for (Vq vq : vqs) {
            line(sb, "vq " + vq.index(), "group " + dash(vq.group()) + ", desc group " + dash(vq.descGroup()) + ", size "
                    + dash(vq.size()));
        }
        for (String u : unavailable) {
            line(sb, "unavailable", u);
        }
        return sb.toString();
    }

    private static String dash(Integer v) {
        return v == null ? "-" : v.toString();
    }

    private static void line(StringBuilder sb, String key, String value) {
        sb.append(String.format("%-18s %s%n", key + ":", value));
    }
}
