package org.vdpactl.mgmt;

import static org.vdpactl.mgmt.VdpaAttribute.*;

import java.util.ArrayList;
import java.util.List;
import org.vdpactl.netlink.Attribute;
import org.vdpactl.netlink.Attributes;
import org.vdpactl.netlink.NetlinkParseException;
import org.vdpactl.vhost.BlkConfig;
import org.vdpactl.vhost.NetConfig;
import org.vdpactl.vhost.VirtioDeviceId;
import org.vdpactl.abi.KernelProfile;

/**
 * Turns the attributes of vdpa family replies into records. Tolerant: attributes it does not
 * know are ignored, optional ones become null, integers are read by length.
 *
 * <p>{@code legacyNumbering} is for kernels before 6.2 (VDPA_ATTR_MAX 22), where attribute 21
 * is the device features of a net device rather than the block capacity.
 */
public final class VdpaReplies {
    private static final int LEGACY_DEV_FEATURES = KernelProfile.Netlink.LEGACY_DEVICE_FEATURES_ATTR;

    private VdpaReplies() {
    }

    public static MgmtDevInfo mgmtDev(Attributes a) {
        return new MgmtDevInfo(
                a.optionalString(MGMTDEV_BUS_NAME.number()).orElse(null),
                a.string(MGMTDEV_DEV_NAME.number()),
                a.optionalUnsigned(MGMTDEV_SUPPORTED_CLASSES.number()).orElse(0),
                a.unsignedIntOrNull(DEV_MGMTDEV_MAX_VQS.number()),
                a.unsignedOrNull(DEV_SUPPORTED_FEATURES.number()));
    }

    public static VdpaDevInfo device(Attributes a) {
        return new VdpaDevInfo(
                a.string(DEV_NAME.number()),
                a.optionalString(MGMTDEV_BUS_NAME.number()).orElse(null),
                a.string(MGMTDEV_DEV_NAME.number()),
                a.unsignedInt(DEV_ID.number()),
                a.unsignedIntOrNull(DEV_VENDOR_ID.number()),
                a.unsignedIntOrNull(DEV_MAX_VQS.number()),
                a.unsignedIntOrNull(DEV_MAX_VQ_SIZE.number()),
                a.unsignedIntOrNull(DEV_MIN_VQ_SIZE.number()));
    }

    public static DevConfig config(Attributes a, boolean legacyNumbering) {
        int id = a.unsignedInt(DEV_ID.number());
        Long deviceFeatures = a.unsignedOrNull(DEV_FEATURES.number());
        NetConfig net = null;
        BlkConfig blk = null;
        Boolean readOnly = null;
        Boolean flush = null;
        if (id == VirtioDeviceId.NET.id()) {
            if (legacyNumbering && deviceFeatures == null) {
                deviceFeatures = a.unsignedOrNull(LEGACY_DEV_FEATURES);
            }
            net = NetConfig.ofNetlink(
                    a.find(DEV_NET_CFG_MACADDR.number()).map(VdpaReplies::mac).map(MacAddress::toString).orElse(null),
                    a.unsignedIntOrNull(DEV_NET_CFG_MTU.number()),
                    a.unsignedIntOrNull(DEV_NET_STATUS.number()),
                    a.unsignedIntOrNull(DEV_NET_CFG_MAX_VQP.number()));
        } else if (id == VirtioDeviceId.BLOCK.id() && !legacyNumbering) {
            blk = BlkConfig.ofNetlink(
                    a.unsignedOrNull(DEV_BLK_CFG_CAPACITY.number()),
                    a.unsignedOrNull(DEV_BLK_CFG_SIZE_MAX.number()),
                    a.unsignedOrNull(DEV_BLK_CFG_BLK_SIZE.number()),
                    a.unsignedOrNull(DEV_BLK_CFG_SEG_MAX.number()),
                    a.unsignedIntOrNull(DEV_BLK_CFG_NUM_QUEUES.number()),
                    a.unsignedIntOrNull(DEV_BLK_CFG_PHY_BLK_EXP.number()),
                    a.unsignedIntOrNull(DEV_BLK_CFG_ALIGN_OFFSET.number()),
                    a.unsignedIntOrNull(DEV_BLK_CFG_MIN_IO_SIZE.number()),
                    a.unsignedOrNull(DEV_BLK_CFG_OPT_IO_SIZE.number()),
                    a.unsignedOrNull(DEV_BLK_CFG_MAX_DISCARD_SEC.number()),
                    a.unsignedOrNull(DEV_BLK_CFG_MAX_DISCARD_SEG.number()),
                    a.unsignedOrNull(DEV_BLK_CFG_DISCARD_SEC_ALIGN.number()),
                    a.unsignedOrNull(DEV_BLK_CFG_MAX_WRITE_ZEROES_SEC.number()),
                    a.unsignedOrNull(DEV_BLK_CFG_MAX_WRITE_ZEROES_SEG.number()));
            readOnly = a.find(DEV_BLK_READ_ONLY.number()).map(x -> x.unsigned() != 0).orElse(null);
            flush = a.find(DEV_BLK_FLUSH.number()).map(x -> x.unsigned() != 0).orElse(null);
        }
        return new DevConfig(a.string(DEV_NAME.number()), id, a.unsignedOrNull(DEV_NEGOTIATED_FEATURES.number()),
                deviceFeatures, net, blk, readOnly, flush);
    }

    public static VendorStats vendorStats(Attributes a) {
        List<VendorStats.Stat> stats = new ArrayList<>();
        String pendingName = null;
        for (Attribute x : a) {
            if (x.type() == DEV_VENDOR_ATTR_NAME.number()) {
                pendingName = x.string();
            } else if (x.type() == DEV_VENDOR_ATTR_VALUE.number()) {
                if (pendingName == null) {
                    throw new NetlinkParseException("vendor statistic value without a name");
                }
                stats.add(new VendorStats.Stat(pendingName, x.unsigned()));
                pendingName = null;
            }
        }
        return new VendorStats(a.string(DEV_NAME.number()), a.unsignedInt(DEV_ID.number()),
                a.unsignedOrNull(DEV_NEGOTIATED_FEATURES.number()), a.unsignedIntOrNull(DEV_NET_CFG_MAX_VQP.number()),
                a.unsignedInt(DEV_QUEUE_INDEX.number()), stats);
    }

    private static MacAddress mac(Attribute a) {
        if (a.length() != MacAddress.LENGTH) {
            throw new NetlinkParseException("MAC attribute of " + a.length() + " bytes");
        }
        return MacAddress.of(a.bytes());
    }
}
