package org.vdpactl.mgmt;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigInteger;
import java.util.List;
import org.vdpactl.vhost.BlkConfig;
import org.vdpactl.vhost.NetConfig;
import org.vdpactl.vhost.VirtioDeviceId;

/**
 * The JSON of {@code vdpa -j}: same key names, same nesting, same value forms, built with
 * Jackson. iproute2's glitches are fixed, each documented in {@code docs/json-compat.md}:
 * the keys {@code "link "} and {@code "link_announce "} lose their trailing space, unnamed
 * feature bits are the strings {@code "bit_N"} (iproute2 mixes bare numbers into the string
 * array), vstats name queue 0 "rx" when MAX_VQP is absent (iproute2 says "control_vq"), and
 * block devices show their configuration (iproute2 prints an empty object).
 */
public final class IprouteJson {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private IprouteJson() {
    }

    /** {@code vdpa -j mgmtdev show}: {"mgmtdev":{"vdpasim_net":{...}}}. */
    public static ObjectNode mgmtdevs(List<MgmtDevInfo> mgmtdevs) {
        ObjectNode root = F.objectNode();
        ObjectNode section = root.putObject("mgmtdev");
        for (MgmtDevInfo m : mgmtdevs) {
            ObjectNode o = section.putObject(m.handle());
            ArrayNode classes = o.putArray("supported_classes");
            m.classIds().forEach(id -> classes.add(VirtioNames.className(id)));
            if (m.maxSupportedVqs() != null) {
                o.put("max_supported_vqs", Integer.toUnsignedLong(m.maxSupportedVqs()));
            }
            if (m.supportedFeatures() != null) {
                // iproute2 names device bits with the net table only when the mgmtdev has the net class
                int namedAs = m.supportsClass(VirtioDeviceId.NET.id()) ? VirtioDeviceId.NET.id()
                        : m.supportsClass(VirtioDeviceId.BLOCK.id()) ? VirtioDeviceId.BLOCK.id() : 0;
                features(o.putArray("dev_features"), m.supportedFeatures(), namedAs);
            }
        }
        return root;
    }

    /** {@code vdpa -j dev show}: {"dev":{"vdpa0":{"type":"network",...}}}. */
    public static ObjectNode devs(List<VdpaDevInfo> devs) {
        ObjectNode root = F.objectNode();
        ObjectNode section = root.putObject("dev");
        for (VdpaDevInfo d : devs) {
            ObjectNode o = section.putObject(d.name());
            o.put("type", d.typeName());
            o.put("mgmtdev", d.mgmtHandle());
            putUnsigned(o, "vendor_id", d.vendorId());
            putUnsigned(o, "max_vqs", d.maxVqs());
            putUnsigned(o, "max_vq_size", d.maxVqSize());
        }
        return root;
    }

    /** {@code vdpa -j dev config show}: {"config":{"vdpa0":{"mac":...,"link":"up",...}}}. */
    public static ObjectNode configs(List<DevConfig> configs) {
        ObjectNode root = F.objectNode();
        ObjectNode section = root.putObject("config");
        for (DevConfig c : configs) {
            ObjectNode o = section.putObject(c.name());
            if (c.net() != null) {
                net(o, c);
            } else if (c.blk() != null) {
                blk(o, c);
            }
        }
        return root;
    }

    /** {@code vdpa -j dev vstats show DEV qidx N}: {"vstats":{"vdpa0":{"queue_type":"rx","rx packets":0,...}}}. */
    public static ObjectNode vstats(VendorStats stats) {
        ObjectNode root = F.objectNode();
        ObjectNode o = root.putObject("vstats").putObject(stats.name());
        if (stats.deviceId() == VirtioDeviceId.NET.id()) {
            o.put("queue_type", stats.queueType());
            for (VendorStats.Stat s : stats.stats()) {
                putU64(o, s.name(), s.value());
            }
        }
        return root;
    }

    private static void net(ObjectNode o, DevConfig c) {
        NetConfig n = c.net();
        if (n.mac() != null) {
            o.put("mac", n.mac());
        }
        if (n.status() != null) {
            o.put("link", n.linkUp() ? "up" : "down");
            o.put("link_announce", n.announce());
        }
        putUnsigned(o, "max_vq_pairs", n.maxVirtqueuePairs());
        putUnsigned(o, "mtu", n.mtu());
        if (c.negotiatedFeatures() != null) {
            features(o.putArray("negotiated_features"), c.negotiatedFeatures(), c.deviceId());
        }
    }

    private static void blk(ObjectNode o, DevConfig c) {
        BlkConfig b = c.blk();
        putU64(o, "capacity", b.capacity());
        putU64(o, "size_max", b.sizeMax());
        putU64(o, "blk_size", b.blkSize());
        putU64(o, "seg_max", b.segMax());
        putUnsigned(o, "num_queues", b.numQueues());
        putUnsigned(o, "physical_block_exp", b.physicalBlockExp());
        putUnsigned(o, "alignment_offset", b.alignmentOffset());
        putUnsigned(o, "min_io_size", b.minIoSize());
        putU64(o, "opt_io_size", b.optIoSize());
        putU64(o, "max_discard_sectors", b.maxDiscardSectors());
        putU64(o, "max_discard_seg", b.maxDiscardSeg());
        putU64(o, "discard_sector_alignment", b.discardSectorAlignment());
        putU64(o, "max_write_zeroes_sectors", b.maxWriteZeroesSectors());
        putU64(o, "max_write_zeroes_seg", b.maxWriteZeroesSeg());
        if (c.readOnly() != null) {
            o.put("read_only", c.readOnly());
        }
        if (c.flush() != null) {
            o.put("flush", c.flush());
        }
        if (c.negotiatedFeatures() != null) {
            features(o.putArray("negotiated_features"), c.negotiatedFeatures(), c.deviceId());
        }
    }

    private static void features(ArrayNode array, long features, int deviceId) {
        VirtioNames.featureNames(features, deviceId).forEach(array::add);
    }

    private static void putUnsigned(ObjectNode o, String key, Integer value) {
        if (value != null) {
            o.put(key, Integer.toUnsignedLong(value));
        }
    }

    private static void putU64(ObjectNode o, String key, Long value) {
        if (value == null) {
            return;
        }
        if (value >= 0) {
            o.put(key, value.longValue());
        } else {
            o.put(key, new BigInteger(Long.toUnsignedString(value)));
        }
    }
}
