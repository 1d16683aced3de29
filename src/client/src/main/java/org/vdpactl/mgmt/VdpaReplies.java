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
import org.vdpactl.abi.NetlinkAttribute;
import org.vdpactl.abi.UapiVdpaAttribute;

/**
 * Turns the attributes of vdpa family replies into records. Tolerant: attributes it does not
 * know are ignored, optional ones become null. Each attribute is read by the type the ABI declares
 * ({@link UapiVdpaAttribute}); one shorter than its type is a {@link NetlinkParseException} naming it.
 *
 * <p>{@code legacyNumbering} is for kernels before 6.2 (VDPA_ATTR_MAX 22), where attribute 21
 * is the device features of a net device rather than the block capacity.
 */
public final class VdpaReplies {
    private static final NetlinkAttribute LEGACY_DEV_FEATURES = UapiVdpaAttribute.LEGACY_DEV_SUPPORTED_FEATURES;

    private VdpaReplies() {
    }

    public static MgmtDevInfo mgmtDev(Attributes a) {
        return new MgmtDevInfo(
                a.optionalString(MGMTDEV_BUS_NAME).orElse(null),
                a.string(MGMTDEV_DEV_NAME),
                a.optionalUnsigned(MGMTDEV_SUPPORTED_CLASSES).orElse(0),
                a.unsignedIntOrNull(DEV_MGMTDEV_MAX_VQS),
                a.unsignedOrNull(DEV_SUPPORTED_FEATURES));
    }

    public static VdpaDevInfo device(Attributes a) {
        return new VdpaDevInfo(
                a.string(DEV_NAME),
                a.optionalString(MGMTDEV_BUS_NAME).orElse(null),
                a.string(MGMTDEV_DEV_NAME),
                a.unsignedInt(DEV_ID),
                a.unsignedIntOrNull(DEV_VENDOR_ID),
                a.unsignedIntOrNull(DEV_MAX_VQS),
                a.unsignedIntOrNull(DEV_MAX_VQ_SIZE),
                a.unsignedIntOrNull(DEV_MIN_VQ_SIZE));
    }

    public static DevConfig config(Attributes a, boolean legacyNumbering) {
        int id = a.unsignedInt(DEV_ID);
        Long deviceFeatures = a.unsignedOrNull(DEV_FEATURES);
        NetConfig net = null;
        BlkConfig blk = null;
        Boolean readOnly = null;
        Boolean flush = null;
        if (id == VirtioDeviceId.NET.id()) {
            if (legacyNumbering && deviceFeatures == null) {
                deviceFeatures = a.unsignedOrNull(LEGACY_DEV_FEATURES);
            }
            net = NetConfig.ofNetlink(
                    a.find(DEV_NET_CFG_MACADDR).map(VdpaReplies::mac).map(MacAddress::toString).orElse(null),
                    a.unsignedIntOrNull(DEV_NET_CFG_MTU),
                    a.unsignedIntOrNull(DEV_NET_STATUS),
                    a.unsignedIntOrNull(DEV_NET_CFG_MAX_VQP));
        } else if (id == VirtioDeviceId.BLOCK.id() && !legacyNumbering) {
            blk = BlkConfig.ofNetlink(
                    a.unsignedOrNull(DEV_BLK_CFG_CAPACITY),
                    a.unsignedOrNull(DEV_BLK_CFG_SIZE_MAX),
                    a.unsignedOrNull(DEV_BLK_CFG_BLK_SIZE),
                    a.unsignedOrNull(DEV_BLK_CFG_SEG_MAX),
                    a.unsignedIntOrNull(DEV_BLK_CFG_NUM_QUEUES),
                    a.unsignedIntOrNull(DEV_BLK_CFG_PHY_BLK_EXP),
                    a.unsignedIntOrNull(DEV_BLK_CFG_ALIGN_OFFSET),
                    a.unsignedIntOrNull(DEV_BLK_CFG_MIN_IO_SIZE),
                    a.unsignedOrNull(DEV_BLK_CFG_OPT_IO_SIZE),
                    a.unsignedOrNull(DEV_BLK_CFG_MAX_DISCARD_SEC),
                    a.unsignedOrNull(DEV_BLK_CFG_MAX_DISCARD_SEG),
                    a.unsignedOrNull(DEV_BLK_CFG_DISCARD_SEC_ALIGN),
                    a.unsignedOrNull(DEV_BLK_CFG_MAX_WRITE_ZEROES_SEC),
                    a.unsignedOrNull(DEV_BLK_CFG_MAX_WRITE_ZEROES_SEG));
            readOnly = flag(a.unsignedIntOrNull(DEV_BLK_READ_ONLY));
            flush = flag(a.unsignedIntOrNull(DEV_BLK_FLUSH));
        }
        return new DevConfig(a.string(DEV_NAME), id, a.unsignedOrNull(DEV_NEGOTIATED_FEATURES),
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
                stats.add(new VendorStats.Stat(pendingName, x.unsigned(DEV_VENDOR_ATTR_VALUE.type())));
                pendingName = null;
            }
        }
        return new VendorStats(a.string(DEV_NAME), a.unsignedInt(DEV_ID),
                a.unsignedOrNull(DEV_NEGOTIATED_FEATURES), a.unsignedIntOrNull(DEV_NET_CFG_MAX_VQP),
                a.unsignedInt(DEV_QUEUE_INDEX), stats);
    }

    private static Boolean flag(Integer u8) {
        return u8 == null ? null : u8 != 0;
    }

    private static MacAddress mac(Attribute a) {
        if (a.length() != MacAddress.LENGTH) {
            throw new NetlinkParseException("MAC attribute of " + a.length() + " bytes");
        }
        return MacAddress.of(a.bytes());
    }
}
