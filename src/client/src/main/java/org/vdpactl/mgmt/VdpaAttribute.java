package org.vdpactl.mgmt;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.vdpactl.ffi.gen.vhost.vhost_h;

/**
 * The attributes of the vdpa family ({@code enum vdpa_attr}) in the 6.12+ numbering (attribute 21
 * is DEV_BLK_CFG_CAPACITY, MAX 37), numbers from the generated bindings. {@link #option()} is the
 * iproute2 option that sets a provisionable attribute ("mac", "mtu", "max_vqp", "device_features").
 */
public enum VdpaAttribute {
    UNSPEC(vhost_h.VDPA_ATTR_UNSPEC(), null),
    MGMTDEV_BUS_NAME(vhost_h.VDPA_ATTR_MGMTDEV_BUS_NAME(), null),
    MGMTDEV_DEV_NAME(vhost_h.VDPA_ATTR_MGMTDEV_DEV_NAME(), null),
    MGMTDEV_SUPPORTED_CLASSES(vhost_h.VDPA_ATTR_MGMTDEV_SUPPORTED_CLASSES(), null),
    DEV_NAME(vhost_h.VDPA_ATTR_DEV_NAME(), "name"),
    DEV_ID(vhost_h.VDPA_ATTR_DEV_ID(), null),
    DEV_VENDOR_ID(vhost_h.VDPA_ATTR_DEV_VENDOR_ID(), null),
    DEV_MAX_VQS(vhost_h.VDPA_ATTR_DEV_MAX_VQS(), null),
    DEV_MAX_VQ_SIZE(vhost_h.VDPA_ATTR_DEV_MAX_VQ_SIZE(), null),
    DEV_MIN_VQ_SIZE(vhost_h.VDPA_ATTR_DEV_MIN_VQ_SIZE(), null),
    DEV_NET_CFG_MACADDR(vhost_h.VDPA_ATTR_DEV_NET_CFG_MACADDR(), "mac"),
    DEV_NET_STATUS(vhost_h.VDPA_ATTR_DEV_NET_STATUS(), null),
    DEV_NET_CFG_MAX_VQP(vhost_h.VDPA_ATTR_DEV_NET_CFG_MAX_VQP(), "max_vqp"),
    DEV_NET_CFG_MTU(vhost_h.VDPA_ATTR_DEV_NET_CFG_MTU(), "mtu"),
    DEV_NEGOTIATED_FEATURES(vhost_h.VDPA_ATTR_DEV_NEGOTIATED_FEATURES(), null),
    DEV_MGMTDEV_MAX_VQS(vhost_h.VDPA_ATTR_DEV_MGMTDEV_MAX_VQS(), null),
    DEV_SUPPORTED_FEATURES(vhost_h.VDPA_ATTR_DEV_SUPPORTED_FEATURES(), null),
    DEV_QUEUE_INDEX(vhost_h.VDPA_ATTR_DEV_QUEUE_INDEX(), "qidx"),
    DEV_VENDOR_ATTR_NAME(vhost_h.VDPA_ATTR_DEV_VENDOR_ATTR_NAME(), null),
    DEV_VENDOR_ATTR_VALUE(vhost_h.VDPA_ATTR_DEV_VENDOR_ATTR_VALUE(), null),
    DEV_FEATURES(vhost_h.VDPA_ATTR_DEV_FEATURES(), "device_features"),
    DEV_BLK_CFG_CAPACITY(vhost_h.VDPA_ATTR_DEV_BLK_CFG_CAPACITY(), null),
    DEV_BLK_CFG_SIZE_MAX(vhost_h.VDPA_ATTR_DEV_BLK_CFG_SIZE_MAX(), null),
    DEV_BLK_CFG_BLK_SIZE(vhost_h.VDPA_ATTR_DEV_BLK_CFG_BLK_SIZE(), null),
    DEV_BLK_CFG_SEG_MAX(vhost_h.VDPA_ATTR_DEV_BLK_CFG_SEG_MAX(), null),
    DEV_BLK_CFG_NUM_QUEUES(vhost_h.VDPA_ATTR_DEV_BLK_CFG_NUM_QUEUES(), null),
    DEV_BLK_CFG_PHY_BLK_EXP(vhost_h.VDPA_ATTR_DEV_BLK_CFG_PHY_BLK_EXP(), null),
    DEV_BLK_CFG_ALIGN_OFFSET(vhost_h.VDPA_ATTR_DEV_BLK_CFG_ALIGN_OFFSET(), null),
    DEV_BLK_CFG_MIN_IO_SIZE(vhost_h.VDPA_ATTR_DEV_BLK_CFG_MIN_IO_SIZE(), null),
    DEV_BLK_CFG_OPT_IO_SIZE(vhost_h.VDPA_ATTR_DEV_BLK_CFG_OPT_IO_SIZE(), null),
    DEV_BLK_CFG_MAX_DISCARD_SEC(vhost_h.VDPA_ATTR_DEV_BLK_CFG_MAX_DISCARD_SEC(), null),
    DEV_BLK_CFG_MAX_DISCARD_SEG(vhost_h.VDPA_ATTR_DEV_BLK_CFG_MAX_DISCARD_SEG(), null),
    DEV_BLK_CFG_DISCARD_SEC_ALIGN(vhost_h.VDPA_ATTR_DEV_BLK_CFG_DISCARD_SEC_ALIGN(), null),
    DEV_BLK_CFG_MAX_WRITE_ZEROES_SEC(vhost_h.VDPA_ATTR_DEV_BLK_CFG_MAX_WRITE_ZEROES_SEC(), null),
    DEV_BLK_CFG_MAX_WRITE_ZEROES_SEG(vhost_h.VDPA_ATTR_DEV_BLK_CFG_MAX_WRITE_ZEROES_SEG(), null),
    DEV_BLK_READ_ONLY(vhost_h.VDPA_ATTR_DEV_BLK_READ_ONLY(), null),
    DEV_BLK_FLUSH(vhost_h.VDPA_ATTR_DEV_BLK_FLUSH(), null);

    /** VDPA_ATTR_MAX of the 6.12+ numbering. */
    public static final int MAX = vhost_h.VDPA_ATTR_MAX();

    private final int number;
    private final String option;

    VdpaAttribute(int number, String option) {
        this.number = number;
        this.option = option;
    }

    public int number() {
        return number;
    }

    /** The iproute2 option for this attribute, or null when it is not set by users. */
    public String option() {
        return option;
    }

    /** {@code "VDPA_ATTR_DEV_NET_CFG_MAX_VQP"}. */
    public String constantName() {
        return "VDPA_ATTR_" + name();
    }

    /** The bit of this attribute in the kernel's provisioning masks ({@code BIT_ULL(attr)}). */
    public long maskBit() {
        return 1L << number;
    }

    public static Optional<VdpaAttribute> of(int number) {
        for (VdpaAttribute a : values()) {
            if (a.number == number && a != UNSPEC) {
                return Optional.of(a);
            }
        }
        return number == 0 ? Optional.of(UNSPEC) : Optional.empty();
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
