package org.vdpactl.abi;

import static org.vdpactl.abi.AttributeSpec.reply;
import static org.vdpactl.abi.AttributeSpec.request;
import static org.vdpactl.abi.NlaType.BINARY;
import static org.vdpactl.abi.NlaType.NUL_STRING;
import static org.vdpactl.abi.NlaType.STRING;
import static org.vdpactl.abi.NlaType.U16;
import static org.vdpactl.abi.NlaType.U32;
import static org.vdpactl.abi.NlaType.U64;
import static org.vdpactl.abi.NlaType.U8;

import org.vdpactl.ffi.gen.vhost.vhost_h;

/**
 * Every attribute of the vdpa family ({@code enum vdpa_attr} of linux/vdpa.h, the 6.2+ numbering: 21 is
 * DEV_BLK_CFG_CAPACITY), with the number jextract evaluated, its wire type and, for the attributes a request may
 * carry, the kernel's {@code vdpa_nl_policy} entry (drivers/vdpa/vdpa.c; the same eight entries in 6.1, 6.12 and
 * 7.2, docs/spec/kernel-abi.md §7.3). The client writes and reads by these types, the fake validates requests with
 * these policies and writes its replies with these widths; the kernel profiles list which entries a release's
 * policy has, by name.
 *
 * <p>The reply-only widths are those of the kernel's {@code nla_put_*} calls (vdpa_dev_fill,
 * vdpa_dev_net_config_fill, vdpa_dev_blk_*_config_fill, vdpa_mgmtdev_fill), not the header's comments:
 * DEV_NET_STATUS is a u16 on the wire although linux/vdpa.h says u8.
 */
public enum UapiVdpaAttribute implements NetlinkAttribute {
    VDPA_ATTR_MGMTDEV_BUS_NAME(request(vhost_h.VDPA_ATTR_MGMTDEV_BUS_NAME(), NUL_STRING, NlaPolicy.of(NUL_STRING))),
    VDPA_ATTR_MGMTDEV_DEV_NAME(request(vhost_h.VDPA_ATTR_MGMTDEV_DEV_NAME(), STRING, NlaPolicy.of(STRING))),
    VDPA_ATTR_MGMTDEV_SUPPORTED_CLASSES(reply(vhost_h.VDPA_ATTR_MGMTDEV_SUPPORTED_CLASSES(), U64)),
    VDPA_ATTR_DEV_NAME(request(vhost_h.VDPA_ATTR_DEV_NAME(), STRING, NlaPolicy.of(STRING))),
    VDPA_ATTR_DEV_ID(reply(vhost_h.VDPA_ATTR_DEV_ID(), U32)),
    VDPA_ATTR_DEV_VENDOR_ID(reply(vhost_h.VDPA_ATTR_DEV_VENDOR_ID(), U32)),
    VDPA_ATTR_DEV_MAX_VQS(reply(vhost_h.VDPA_ATTR_DEV_MAX_VQS(), U32)),
    VDPA_ATTR_DEV_MAX_VQ_SIZE(reply(vhost_h.VDPA_ATTR_DEV_MAX_VQ_SIZE(), U16)),
    VDPA_ATTR_DEV_MIN_VQ_SIZE(reply(vhost_h.VDPA_ATTR_DEV_MIN_VQ_SIZE(), U16)),
    /** NLA_POLICY_ETH_ADDR: exactly ETH_ALEN bytes. */
    VDPA_ATTR_DEV_NET_CFG_MACADDR(request(vhost_h.VDPA_ATTR_DEV_NET_CFG_MACADDR(), BINARY, NlaPolicy.exactLength(6))),
    VDPA_ATTR_DEV_NET_STATUS(reply(vhost_h.VDPA_ATTR_DEV_NET_STATUS(), U16)),
    VDPA_ATTR_DEV_NET_CFG_MAX_VQP(request(vhost_h.VDPA_ATTR_DEV_NET_CFG_MAX_VQP(), U16, NlaPolicy.of(U16))),
    /** NLA_POLICY_MIN(NLA_U16, 68): ETH_MIN_MTU. */
    VDPA_ATTR_DEV_NET_CFG_MTU(request(vhost_h.VDPA_ATTR_DEV_NET_CFG_MTU(), U16, NlaPolicy.min(U16, 68))),
    VDPA_ATTR_DEV_NEGOTIATED_FEATURES(reply(vhost_h.VDPA_ATTR_DEV_NEGOTIATED_FEATURES(), U64)),
    VDPA_ATTR_DEV_MGMTDEV_MAX_VQS(reply(vhost_h.VDPA_ATTR_DEV_MGMTDEV_MAX_VQS(), U32)),
    VDPA_ATTR_DEV_SUPPORTED_FEATURES(reply(vhost_h.VDPA_ATTR_DEV_SUPPORTED_FEATURES(), U64)),
    VDPA_ATTR_DEV_QUEUE_INDEX(request(vhost_h.VDPA_ATTR_DEV_QUEUE_INDEX(), U32, NlaPolicy.of(U32))),
    VDPA_ATTR_DEV_VENDOR_ATTR_NAME(reply(vhost_h.VDPA_ATTR_DEV_VENDOR_ATTR_NAME(), STRING)),
    VDPA_ATTR_DEV_VENDOR_ATTR_VALUE(reply(vhost_h.VDPA_ATTR_DEV_VENDOR_ATTR_VALUE(), U64)),
    VDPA_ATTR_DEV_FEATURES(request(vhost_h.VDPA_ATTR_DEV_FEATURES(), U64, NlaPolicy.of(U64))),
    VDPA_ATTR_DEV_BLK_CFG_CAPACITY(reply(vhost_h.VDPA_ATTR_DEV_BLK_CFG_CAPACITY(), U64)),
    VDPA_ATTR_DEV_BLK_CFG_SIZE_MAX(reply(vhost_h.VDPA_ATTR_DEV_BLK_CFG_SIZE_MAX(), U32)),
    VDPA_ATTR_DEV_BLK_CFG_BLK_SIZE(reply(vhost_h.VDPA_ATTR_DEV_BLK_CFG_BLK_SIZE(), U32)),
    VDPA_ATTR_DEV_BLK_CFG_SEG_MAX(reply(vhost_h.VDPA_ATTR_DEV_BLK_CFG_SEG_MAX(), U32)),
    VDPA_ATTR_DEV_BLK_CFG_NUM_QUEUES(reply(vhost_h.VDPA_ATTR_DEV_BLK_CFG_NUM_QUEUES(), U16)),
    VDPA_ATTR_DEV_BLK_CFG_PHY_BLK_EXP(reply(vhost_h.VDPA_ATTR_DEV_BLK_CFG_PHY_BLK_EXP(), U8)),
    VDPA_ATTR_DEV_BLK_CFG_ALIGN_OFFSET(reply(vhost_h.VDPA_ATTR_DEV_BLK_CFG_ALIGN_OFFSET(), U8)),
    VDPA_ATTR_DEV_BLK_CFG_MIN_IO_SIZE(reply(vhost_h.VDPA_ATTR_DEV_BLK_CFG_MIN_IO_SIZE(), U16)),
    VDPA_ATTR_DEV_BLK_CFG_OPT_IO_SIZE(reply(vhost_h.VDPA_ATTR_DEV_BLK_CFG_OPT_IO_SIZE(), U32)),
    VDPA_ATTR_DEV_BLK_CFG_MAX_DISCARD_SEC(reply(vhost_h.VDPA_ATTR_DEV_BLK_CFG_MAX_DISCARD_SEC(), U32)),
    VDPA_ATTR_DEV_BLK_CFG_MAX_DISCARD_SEG(reply(vhost_h.VDPA_ATTR_DEV_BLK_CFG_MAX_DISCARD_SEG(), U32)),
    VDPA_ATTR_DEV_BLK_CFG_DISCARD_SEC_ALIGN(reply(vhost_h.VDPA_ATTR_DEV_BLK_CFG_DISCARD_SEC_ALIGN(), U32)),
    VDPA_ATTR_DEV_BLK_CFG_MAX_WRITE_ZEROES_SEC(reply(vhost_h.VDPA_ATTR_DEV_BLK_CFG_MAX_WRITE_ZEROES_SEC(), U32)),
    VDPA_ATTR_DEV_BLK_CFG_MAX_WRITE_ZEROES_SEG(reply(vhost_h.VDPA_ATTR_DEV_BLK_CFG_MAX_WRITE_ZEROES_SEG(), U32)),
    VDPA_ATTR_DEV_BLK_READ_ONLY(reply(vhost_h.VDPA_ATTR_DEV_BLK_READ_ONLY(), U8)),
    VDPA_ATTR_DEV_BLK_FLUSH(reply(vhost_h.VDPA_ATTR_DEV_BLK_FLUSH(), U8));

    /** VDPA_ATTR_MAX of the 6.2+ numbering (37). */
    public static final int MAX = vhost_h.VDPA_ATTR_MAX();

    /**
     * VDPA_ATTR_VDPA_DEV_SUPPORTED_FEATURES of the numbering before 6.2 (VDPA_ATTR_MAX 22): where a kernel with
     * {@link KernelProfile.Netlink#legacyDeviceFeaturesAttr()} puts a net device's features. The bindings are
     * 6.12's, whose 21 is the block capacity, so jextract has no name for it: this is its one home
     * (docs/spec/kernel-abi.md §8.2).
     */
    public static final NetlinkAttribute LEGACY_DEV_SUPPORTED_FEATURES =
            NetlinkAttribute.of("VDPA_ATTR_VDPA_DEV_SUPPORTED_FEATURES", 21, U64);

    private final AttributeSpec spec;

    UapiVdpaAttribute(AttributeSpec spec) {
        this.spec = spec;
    }

    @Override
    public String constantName() {
        return name();
    }

    /** Its number and wire type; for a request attribute its vdpa_nl_policy entry. */
    @Override
    public AttributeSpec spec() {
        return spec;
    }

    /** The attribute with this number, or null (VDPA_ATTR_UNSPEC and unknown numbers). */
    public static UapiVdpaAttribute forNumber(int number) {
        for (UapiVdpaAttribute a : values()) {
            if (a.number() == number) {
                return a;
            }
        }
        return null;
    }
}
