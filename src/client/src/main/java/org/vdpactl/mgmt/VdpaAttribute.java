package org.vdpactl.mgmt;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.vdpactl.abi.AttributeSpec;
import org.vdpactl.abi.NetlinkAttribute;
import org.vdpactl.abi.UapiVdpaAttribute;

/**
 * The attributes of the vdpa family ({@code enum vdpa_attr}) in the 6.2+ numbering (attribute 21
 * is DEV_BLK_CFG_CAPACITY, MAX 37): each wraps the ABI's {@link UapiVdpaAttribute}, whose number, wire type
 * and request policy it answers with, so a put or a read of it checks the width the ABI declares.
 * {@link #option()} is the iproute2 option that sets a provisionable attribute ("mac", "mtu", "max_vqp",
 * "device_features").
 */
public enum VdpaAttribute implements NetlinkAttribute {
    MGMTDEV_BUS_NAME(UapiVdpaAttribute.VDPA_ATTR_MGMTDEV_BUS_NAME, null),
    MGMTDEV_DEV_NAME(UapiVdpaAttribute.VDPA_ATTR_MGMTDEV_DEV_NAME, null),
    MGMTDEV_SUPPORTED_CLASSES(UapiVdpaAttribute.VDPA_ATTR_MGMTDEV_SUPPORTED_CLASSES, null),
    DEV_NAME(UapiVdpaAttribute.VDPA_ATTR_DEV_NAME, "name"),
    DEV_ID(UapiVdpaAttribute.VDPA_ATTR_DEV_ID, null),
    DEV_VENDOR_ID(UapiVdpaAttribute.VDPA_ATTR_DEV_VENDOR_ID, null),
    DEV_MAX_VQS(UapiVdpaAttribute.VDPA_ATTR_DEV_MAX_VQS, null),
    DEV_MAX_VQ_SIZE(UapiVdpaAttribute.VDPA_ATTR_DEV_MAX_VQ_SIZE, null),
    DEV_MIN_VQ_SIZE(UapiVdpaAttribute.VDPA_ATTR_DEV_MIN_VQ_SIZE, null),
    DEV_NET_CFG_MACADDR(UapiVdpaAttribute.VDPA_ATTR_DEV_NET_CFG_MACADDR, "mac"),
    DEV_NET_STATUS(UapiVdpaAttribute.VDPA_ATTR_DEV_NET_STATUS, null),
    DEV_NET_CFG_MAX_VQP(UapiVdpaAttribute.VDPA_ATTR_DEV_NET_CFG_MAX_VQP, "max_vqp"),
    DEV_NET_CFG_MTU(UapiVdpaAttribute.VDPA_ATTR_DEV_NET_CFG_MTU, "mtu"),
    DEV_NEGOTIATED_FEATURES(UapiVdpaAttribute.VDPA_ATTR_DEV_NEGOTIATED_FEATURES, null),
    DEV_MGMTDEV_MAX_VQS(UapiVdpaAttribute.VDPA_ATTR_DEV_MGMTDEV_MAX_VQS, null),
    DEV_SUPPORTED_FEATURES(UapiVdpaAttribute.VDPA_ATTR_DEV_SUPPORTED_FEATURES, null),
    DEV_QUEUE_INDEX(UapiVdpaAttribute.VDPA_ATTR_DEV_QUEUE_INDEX, "qidx"),
    DEV_VENDOR_ATTR_NAME(UapiVdpaAttribute.VDPA_ATTR_DEV_VENDOR_ATTR_NAME, null),
    DEV_VENDOR_ATTR_VALUE(UapiVdpaAttribute.VDPA_ATTR_DEV_VENDOR_ATTR_VALUE, null),
    DEV_FEATURES(UapiVdpaAttribute.VDPA_ATTR_DEV_FEATURES, "device_features"),
    DEV_BLK_CFG_CAPACITY(UapiVdpaAttribute.VDPA_ATTR_DEV_BLK_CFG_CAPACITY, null),
    DEV_BLK_CFG_SIZE_MAX(UapiVdpaAttribute.VDPA_ATTR_DEV_BLK_CFG_SIZE_MAX, null),
    DEV_BLK_CFG_BLK_SIZE(UapiVdpaAttribute.VDPA_ATTR_DEV_BLK_CFG_BLK_SIZE, null),
    DEV_BLK_CFG_SEG_MAX(UapiVdpaAttribute.VDPA_ATTR_DEV_BLK_CFG_SEG_MAX, null),
    DEV_BLK_CFG_NUM_QUEUES(UapiVdpaAttribute.VDPA_ATTR_DEV_BLK_CFG_NUM_QUEUES, null),
    DEV_BLK_CFG_PHY_BLK_EXP(UapiVdpaAttribute.VDPA_ATTR_DEV_BLK_CFG_PHY_BLK_EXP, null),
    DEV_BLK_CFG_ALIGN_OFFSET(UapiVdpaAttribute.VDPA_ATTR_DEV_BLK_CFG_ALIGN_OFFSET, null),
    DEV_BLK_CFG_MIN_IO_SIZE(UapiVdpaAttribute.VDPA_ATTR_DEV_BLK_CFG_MIN_IO_SIZE, null),
    DEV_BLK_CFG_OPT_IO_SIZE(UapiVdpaAttribute.VDPA_ATTR_DEV_BLK_CFG_OPT_IO_SIZE, null),
    DEV_BLK_CFG_MAX_DISCARD_SEC(UapiVdpaAttribute.VDPA_ATTR_DEV_BLK_CFG_MAX_DISCARD_SEC, null),
    DEV_BLK_CFG_MAX_DISCARD_SEG(UapiVdpaAttribute.VDPA_ATTR_DEV_BLK_CFG_MAX_DISCARD_SEG, null),
    DEV_BLK_CFG_DISCARD_SEC_ALIGN(UapiVdpaAttribute.VDPA_ATTR_DEV_BLK_CFG_DISCARD_SEC_ALIGN, null),
    DEV_BLK_CFG_MAX_WRITE_ZEROES_SEC(UapiVdpaAttribute.VDPA_ATTR_DEV_BLK_CFG_MAX_WRITE_ZEROES_SEC, null),
    DEV_BLK_CFG_MAX_WRITE_ZEROES_SEG(UapiVdpaAttribute.VDPA_ATTR_DEV_BLK_CFG_MAX_WRITE_ZEROES_SEG, null),
    DEV_BLK_READ_ONLY(UapiVdpaAttribute.VDPA_ATTR_DEV_BLK_READ_ONLY, null),
    DEV_BLK_FLUSH(UapiVdpaAttribute.VDPA_ATTR_DEV_BLK_FLUSH, null);

    /** VDPA_ATTR_MAX of the 6.2+ numbering. */
    public static final int MAX = UapiVdpaAttribute.MAX;

    private final UapiVdpaAttribute uapi;
    private final String option;

    VdpaAttribute(UapiVdpaAttribute uapi, String option) {
        this.uapi = uapi;
        this.option = option;
    }

    /** The ABI's attribute. */
    public UapiVdpaAttribute uapi() {
        return uapi;
    }

    /** The ABI attribute's number, wire type and request policy. */
    @Override
    public AttributeSpec spec() {
        return uapi.spec();
    }

    /** The iproute2 option for this attribute, or null when it is not set by users. */
    public String option() {
        return option;
    }

    /** {@code "VDPA_ATTR_DEV_NET_CFG_MAX_VQP"}. */
    @Override
    public String constantName() {
        return uapi.constantName();
    }

    /** The bit of this attribute in the kernel's provisioning masks ({@code BIT_ULL(attr)}). */
    public long maskBit() {
        return 1L << number();
    }

    public static Optional<VdpaAttribute> of(int number) {
        for (VdpaAttribute a : values()) {
            if (a.number() == number) {
                return Optional.of(a);
            }
        }
        return Optional.empty();
    }

    /**
     * Names the attributes of a kernel mask such as the one in "Some provided attributes are not
     * supported: 0x1000": {@code ["max_vqp"]}; attributes without an option by constant name,
     * unknown bits as {@code "attr_N"}.
     */
    public static List<String> describeMask(long mask) {
        List<String> names = new ArrayList<>();
        for (int bit = 0; bit < 64; bit++) {
            if ((mask & (1L << bit)) != 0) {
                int b = bit;
                names.add(of(bit).map(a -> a.option != null ? a.option : a.constantName()).orElseGet(() -> "attr_" + b));
            }
        }
        return names;
    }
}
