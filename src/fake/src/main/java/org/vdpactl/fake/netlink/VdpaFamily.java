package org.vdpactl.fake.netlink;

import static org.vdpactl.abi.UapiVdpaAttribute.*;
import static org.vdpactl.ffi.gen.vhost.vhost_h.*;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.vdpactl.fake.errno.KernelError;
import org.vdpactl.fake.bus.MgmtDevice;
import org.vdpactl.fake.bus.Provisioning;
import org.vdpactl.fake.device.FakeVdpaBus;
import org.vdpactl.fake.device.NetlinkDeviceView;
import org.vdpactl.abi.KernelProfile;
import org.vdpactl.abi.UapiVdpaCommand;
import org.vdpactl.ffi.gen.vhost.virtio_blk_config;
import org.vdpactl.ffi.gen.vhost.virtio_net_config;
import org.vdpactl.sys.Errno;
import org.vdpactl.sys.VdpaDeviceRules;

/**
 * The "vdpa" family of {@code drivers/vdpa/vdpa.c} as Linux 6.12 has it, over a {@link FakeVdpaBus}:
 * the strict policy, the op table (ADMIN_PERM on DEV_NEW/DEL/VSTATS/ATTR_SET), each handler's
 * checks in the kernel's order with its extack texts, and each reply's attributes in the
 * kernel's order and widths. Device-specific answers (feature checks at dev_add, vendor
 * statistics, set_attr) come from the bus.
 */
final class VdpaFamily extends FakeGenlFamily {
    private static final String MOD = "vdpa: ";
    /** VIRTIO_NET_CTRL_MQ_VQ_PAIRS_MAX: the highest queue index VSTATS accepts. */
    private static final long MAX_QUEUE_INDEX = 0x8000;
    private static final long NET_ATTRS_MASK = bit(VDPA_ATTR_DEV_NET_CFG_MACADDR.number()) | bit(VDPA_ATTR_DEV_NET_CFG_MTU.number()) | bit(VDPA_ATTR_DEV_NET_CFG_MAX_VQP.number());
    /** VIRTIO_DEVICE_F_MASK: every bit outside the transport range 28..42. */
    private static final long DEVICE_F_MASK = (~0L << (VIRTIO_TRANSPORT_F_END() + 1)) | ((1L << VIRTIO_TRANSPORT_F_START()) - 1);
    private static final int FEATURES_OK = VIRTIO_CONFIG_S_FEATURES_OK();

    private final FakeVdpaBus bus;
    private final KernelProfile kernel;
    private final AttrPolicy[] policy;
    private final List<Op> ops;

    /** The family as the given Linux version registers it: its commands, maxattr and reply layout. */
    VdpaFamily(FakeVdpaBus bus, KernelProfile kernel) {
        this.bus = bus;
        this.kernel = kernel;
        this.policy = policy(kernel.netlink());
        // registered as vdpa_nl_ops of this release: a command the release lacks is not an op of the family
        this.ops = Stream.of(
                op(UapiVdpaCommand.VDPA_CMD_MGMTDEV_GET, false, this::mgmtdevGet, this::mgmtdevDump),
                op(UapiVdpaCommand.VDPA_CMD_DEV_NEW, true, this::devNew, null),
                op(UapiVdpaCommand.VDPA_CMD_DEV_DEL, true, this::devDel, null),
                op(UapiVdpaCommand.VDPA_CMD_DEV_GET, false, this::devGet, this::devDump),
                op(UapiVdpaCommand.VDPA_CMD_DEV_CONFIG_GET, false, this::configGet, this::configDump),
                op(UapiVdpaCommand.VDPA_CMD_DEV_VSTATS_GET, true, this::vstatsGet, null),
                op(UapiVdpaCommand.VDPA_CMD_DEV_ATTR_SET, true, this::attrSet, null))
                .flatMap(Optional::stream)
                .toList();
    }

    private Optional<Op> op(UapiVdpaCommand cmd, boolean admin, DoHandler doit, DumpHandler dumpit) {
        return kernel.hasCommand(cmd) ? Optional.of(new Op(cmd.number(), admin, doit, dumpit, policy, true, true)) : Optional.empty();
    }

    /**
     * vdpa_nl_policy of the profile's kernel, in an array of VDPA_ATTR_MAX + 1 (UNSPEC where it has no entry): the
     * profile names the entries, the ABI's attributes hold them.
     */
    private static AttrPolicy[] policy(KernelProfile.Netlink netlink) {
        return AttrPolicy.table(netlink.maxAttr(), netlink.requestPolicy());
    }

    @Override
    public String name() {
        return "vdpa";
    }

    @Override
    public int version() {
        return VDPA_GENL_VERSION();
    }

    @Override
    public int maxAttr() {
        return kernel.netlink().maxAttr();
    }

    @Override
    public boolean netnsOk() {
        return false;
    }

    @Override
    public int resvStartOp() {
        return VDPA_CMD_DEV_VSTATS_GET() + 1;
    }

    @Override
    public List<Op> ops() {
        return ops;
    }

    @Override
    public String faultCallName(int cmd) {
        UapiVdpaCommand c = UapiVdpaCommand.forNumber(cmd);
        return c == null ? null : c.name();
    }

    @Override
    public String faultDevice(GenlRequestContext r) {
        RequestAttributes a = r.attributes();
        if (a.has(VDPA_ATTR_DEV_NAME)) {
            return a.cString(VDPA_ATTR_DEV_NAME);
        }
        return a.has(VDPA_ATTR_MGMTDEV_DEV_NAME) ? a.cString(VDPA_ATTR_MGMTDEV_DEV_NAME) : null;
    }

    // ------------------------------------------------------------------ lookups

    /** vdpa_mgmtdev_get_from_attr: EINVAL without a name, ENODEV without a match. */
    private MgmtDevice mgmtdevFromAttrs(RequestAttributes a, String extack) {
        if (!a.has(VDPA_ATTR_MGMTDEV_DEV_NAME)) {
            throw new KernelError(Errno.EINVAL, MOD + extack, "no MGMTDEV_DEV_NAME");
        }
        String dev = a.cString(VDPA_ATTR_MGMTDEV_DEV_NAME);
        String busName = a.has(VDPA_ATTR_MGMTDEV_BUS_NAME) ? a.cString(VDPA_ATTR_MGMTDEV_BUS_NAME) : null;
        return bus.managementDevice(busName, dev)
                .orElseThrow(() -> new KernelError(Errno.ENODEV, MOD + extack, "no mgmtdev " + busName + "/" + dev));
    }

    private static String requireDevName(RequestAttributes a) {
        if (!a.has(VDPA_ATTR_DEV_NAME)) {
            throw KernelError.of(Errno.EINVAL, "no DEV_NAME");
        }
        return a.cString(VDPA_ATTR_DEV_NAME);
    }

    /** bus_find_device by name: ENODEV "device not found". */
    private NetlinkDeviceView deviceByName(String name) {
        return bus.device(name).orElseThrow(() -> new KernelError(Errno.ENODEV, MOD + "device not found", "no device " + name));
    }

    /** The kernel's "!vdev->mdev" check: only netlink-created devices are managed. */
    private static void requireManaged(NetlinkDeviceView d, String extack) {
        if (d.mgmtDevice() == null) {
            throw new KernelError(Errno.EINVAL, extack == null ? null : MOD + extack, d.name() + " was not created over netlink");
        }
    }

    // ------------------------------------------------------------------ MGMTDEV_GET

    private void mgmtdevGet(GenlRequestContext r, Replies out) {
        MgmtDevice m = mgmtdevFromAttrs(r.attributes(), "Fail to find the specified mgmt device");
        writeMgmtdev(out.reply(VDPA_CMD_MGMTDEV_NEW()), m);
    }

    private int mgmtdevDump(GenlRequestContext r, long[] cursor, DumpWriter out) {
        List<MgmtDevice> all = bus.managementDevices();
        int idx = 0;
        for (MgmtDevice m : all) {
            if (idx < cursor[0]) {
                idx++;
                continue;
            }
            if (!out.add(VDPA_CMD_MGMTDEV_NEW(), w -> writeMgmtdev(w, m))) {
                break;
            }
            idx++;
        }
        cursor[0] = idx;
        return out.length();
    }

    /** vdpa_mgmtdev_fill. */
    private static void writeMgmtdev(SkBuff w, MgmtDevice m) {
        writeHandle(w, m);
        w.putU64(VDPA_ATTR_MGMTDEV_SUPPORTED_CLASSES, m.supportedClasses());
        w.putU32(VDPA_ATTR_DEV_MGMTDEV_MAX_VQS, m.maxSupportedVqs());
        w.putU64(VDPA_ATTR_DEV_SUPPORTED_FEATURES, m.supportedFeatures());
    }

    /** vdpa_nl_mgmtdev_handle_fill. */
    private static void writeHandle(SkBuff w, MgmtDevice m) {
        if (m.busName() != null) {
            w.putString(VDPA_ATTR_MGMTDEV_BUS_NAME, m.busName());
        }
        w.putString(VDPA_ATTR_MGMTDEV_DEV_NAME, m.devName());
    }

    // ------------------------------------------------------------------ DEV_NEW

    /** vdpa_nl_cmd_dev_add_set_doit. */
    private void devNew(GenlRequestContext r, Replies out) {
        RequestAttributes a = r.attributes();
        String name = requireDevName(a);
        long mask = 0;
        byte[] mac = null;
        Integer mtu = null;
        Integer pairs = null;
        Long features = null;
        if (a.has(VDPA_ATTR_DEV_NET_CFG_MACADDR)) {
            mac = a.bytes(VDPA_ATTR_DEV_NET_CFG_MACADDR);
            mask |= bit(VDPA_ATTR_DEV_NET_CFG_MACADDR.number());
        }
        if (a.has(VDPA_ATTR_DEV_NET_CFG_MTU)) {
            mtu = (int) a.unsigned(VDPA_ATTR_DEV_NET_CFG_MTU);
            mask |= bit(VDPA_ATTR_DEV_NET_CFG_MTU.number());
        }
        if (a.has(VDPA_ATTR_DEV_NET_CFG_MAX_VQP)) {
            pairs = (int) a.unsigned(VDPA_ATTR_DEV_NET_CFG_MAX_VQP);
            if (pairs == 0) {
                throw new KernelError(Errno.EINVAL, MOD + "At least one pair of VQs is required", "max_vqp 0");
            }
            mask |= bit(VDPA_ATTR_DEV_NET_CFG_MAX_VQP.number());
        }
        if (a.has(VDPA_ATTR_DEV_FEATURES)) {
            features = a.unsigned(VDPA_ATTR_DEV_FEATURES);
            long missing = 0;
            if (mac != null && (features & (1L << VIRTIO_NET_F_MAC())) == 0) {
                missing |= 1L << VIRTIO_NET_F_MAC();
            }
            if (mtu != null && (features & (1L << VIRTIO_NET_F_MTU())) == 0) {
                missing |= 1L << VIRTIO_NET_F_MTU();
            }
            if (pairs != null && pairs > 1 && (features & (1L << VIRTIO_NET_F_MQ())) == 0) {
                missing |= 1L << VIRTIO_NET_F_MQ();
            }
            // 6.1 has no such check: it goes on to the mgmtdev lookup (docs/kernel-profiles.md)
            if (missing != 0 && kernel.netlink().devNewChecksFeatureBits()) {
                throw new KernelError(Errno.EINVAL, MOD + "Missing features 0x" + Long.toHexString(missing)
                        + " for provided attributes", "features lack bits for the given attributes");
            }
            mask |= bit(VDPA_ATTR_DEV_FEATURES.number());
        }
        if ((mask & NET_ATTRS_MASK) != 0 && !r.caller().hasCapNetAdmin()) {
            throw KernelError.of(Errno.EPERM, "net attributes need CAP_NET_ADMIN");
        }
        MgmtDevice m = mgmtdevFromAttrs(a, "Fail to find the specified management device");
        long unsupported = new Provisioning(mac, mtu, pairs, features).attributeMask() & ~m.provisionableAttributes();
        if (unsupported != 0) {
            throw new KernelError(Errno.EOPNOTSUPP, kernel.netlink().unsupportedAttributesText(unsupported),
                    "attributes outside the mgmtdev's mask");
        }
        // 6.1's vdpa_nl_cmd_dev_add_set_doit calls dev_add right after the mask check
        if (kernel.netlink().devNewChecksClasses()) {
            checkClasses(mask, features, m.supportedClasses());
        }
        if (name.isEmpty()) {
            // device_add refuses an empty name; it is reached only after the driver's own checks,
            // which fail with EINVAL too, so the answer is the same whichever comes first
            throw KernelError.of(Errno.EINVAL, "empty device name");
        }
        bus.addDevice(m, name, new Provisioning(mac, mtu, pairs, features));
    }

    /** The class checks 6.12 added after the attribute-mask check. */
    private static void checkClasses(long mask, Long features, long classes) {
        if ((mask & NET_ATTRS_MASK) != 0 && (classes & (1L << VIRTIO_ID_NET())) == 0) {
            throw new KernelError(Errno.EINVAL, MOD + "Network class attributes provided on unsupported management device",
                    "net attributes for a non-net mgmtdev");
        }
        if ((mask & NET_ATTRS_MASK) == 0 && features != null && (classes & (1L << VIRTIO_ID_NET())) != 0
                && Long.bitCount(classes) > 1 && (features & DEVICE_F_MASK) != 0) {
            throw new KernelError(Errno.EINVAL, MOD + "Management device supports multi-class while device features specified are ambiguous",
                    "device features on a multi-class mgmtdev");
        }
    }

    // ------------------------------------------------------------------ DEV_DEL

    private void devDel(GenlRequestContext r, Replies out) {
        NetlinkDeviceView d = deviceByName(requireDevName(r.attributes()));
        requireManaged(d, "Only user created device can be deleted by user");
        try {
            bus.deleteDevice(d);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw KernelError.of(Errno.EINTR, "interrupted while " + d.name() + " was still open");
        }
    }

    // ------------------------------------------------------------------ DEV_GET

    private void devGet(GenlRequestContext r, Replies out) {
        NetlinkDeviceView d = deviceByName(requireDevName(r.attributes()));
        requireManaged(d, null);
        writeDevice(out.reply(VDPA_CMD_DEV_NEW()), d);
    }

    private int devDump(GenlRequestContext r, long[] cursor, DumpWriter out) {
        return dumpDevices(cursor, out, d -> out.add(VDPA_CMD_DEV_NEW(), w -> writeDevice(w, d)));
    }

    /** vdpa_dev_fill. */
    private static void writeDevice(SkBuff w, NetlinkDeviceView d) {
        writeHandle(w, d.mgmtDevice());
        w.putString(VDPA_ATTR_DEV_NAME, d.name());
        w.putU32(VDPA_ATTR_DEV_ID, d.virtioId());
        w.putU32(VDPA_ATTR_DEV_VENDOR_ID, d.vendorId());
        w.putU32(VDPA_ATTR_DEV_MAX_VQS, d.maxVqs());
        w.putU16(VDPA_ATTR_DEV_MAX_VQ_SIZE, d.maxVqSize());
        w.putU16(VDPA_ATTR_DEV_MIN_VQ_SIZE, d.minVqSize());
    }

    /** The walk of bus_for_each_dev with cb->args[0] as the restart index, skipping unmanaged devices. */
    private int dumpDevices(long[] cursor, DumpWriter out, Predicate<NetlinkDeviceView> fill) {
        int idx = 0;
        for (NetlinkDeviceView d : bus.devices()) {
            if (d.mgmtDevice() == null) {
                continue;
            }
            if (idx < cursor[0]) {
                idx++;
                continue;
            }
            try {
                if (!fill.test(d)) {
                    break;
                }
            } catch (KernelError e) {
                break; // the kernel stops the walk and returns what it has
            }
            idx++;
        }
        cursor[0] = idx;
        return out.length();
    }

    // ------------------------------------------------------------------ DEV_CONFIG_GET

    private void configGet(GenlRequestContext r, Replies out) {
        NetlinkDeviceView d = deviceByName(requireDevName(r.attributes()));
        requireManaged(d, "unmanaged vdpa device");
        checkConfigSupported(d);
        writeConfig(out.reply(VDPA_CMD_DEV_CONFIG_GET()), d);
    }

    private int configDump(GenlRequestContext r, long[] cursor, DumpWriter out) {
        return dumpDevices(cursor, out, d -> {
            checkConfigSupported(d);
            return out.add(VDPA_CMD_DEV_CONFIG_GET(), w -> writeConfig(w, d));
        });
    }

    private void checkConfigSupported(NetlinkDeviceView d) {
        boolean blk = d.virtioId() == VIRTIO_ID_BLOCK() && !kernel.netlink().legacyDeviceFeaturesAttr();
        if (d.virtioId() != VIRTIO_ID_NET() && !blk) {
            // 6.1's vdpa_dev_config_fill knows only net devices
            throw KernelError.of(Errno.EOPNOTSUPP, "no config reply for virtio id " + d.virtioId());
        }
    }

    /** vdpa_dev_config_fill with the net and blk fills. */
    private void writeConfig(SkBuff w, NetlinkDeviceView d) {
        if (kernel.netlink().legacyDeviceFeaturesAttr()) {
            writeLegacyNetConfig(w, d);
            return;
        }
        w.putString(VDPA_ATTR_DEV_NAME, d.name());
        w.putU32(VDPA_ATTR_DEV_ID, d.virtioId());
        if ((d.status() & FEATURES_OK) != 0) {
            w.putU64(VDPA_ATTR_DEV_NEGOTIATED_FEATURES, d.negotiatedFeatures());
        }
        long f = d.deviceFeatures();
        w.putU64(VDPA_ATTR_DEV_FEATURES, f);
        if (d.virtioId() == VIRTIO_ID_NET()) {
            MemorySegment c = config(d, virtio_net_config.sizeof());
            if (has(f, VIRTIO_NET_F_MTU())) {
                w.putU16(VDPA_ATTR_DEV_NET_CFG_MTU, Short.toUnsignedInt(virtio_net_config.mtu(c)));
            }
            if (has(f, VIRTIO_NET_F_MAC())) {
                w.putBytes(VDPA_ATTR_DEV_NET_CFG_MACADDR, virtio_net_config.mac(c).toArray(ValueLayout.JAVA_BYTE));
            }
            if (has(f, VIRTIO_NET_F_STATUS())) {
                w.putU16(VDPA_ATTR_DEV_NET_STATUS, Short.toUnsignedInt(virtio_net_config.status(c)));
            }
            if (has(f, VIRTIO_NET_F_MQ()) || has(f, VIRTIO_NET_F_RSS())) {
                w.putU16(VDPA_ATTR_DEV_NET_CFG_MAX_VQP, Short.toUnsignedInt(virtio_net_config.max_virtqueue_pairs(c)));
            }
        } else {
            writeBlockConfig(w, f, config(d, virtio_blk_config.sizeof()));
        }
    }

    /** 6.1's vdpa_dev_config_fill + vdpa_dev_net_config_fill: status always, features as attribute 21. */
    private static void writeLegacyNetConfig(SkBuff w, NetlinkDeviceView d) {
        w.putString(VDPA_ATTR_DEV_NAME, d.name());
        w.putU32(VDPA_ATTR_DEV_ID, d.virtioId());
        if ((d.status() & FEATURES_OK) != 0) {
            w.putU64(VDPA_ATTR_DEV_NEGOTIATED_FEATURES, d.negotiatedFeatures());
        }
        MemorySegment c = config(d, virtio_net_config.sizeof());
        w.putU16(VDPA_ATTR_DEV_NET_STATUS, Short.toUnsignedInt(virtio_net_config.status(c)));
        long f = d.deviceFeatures();
        w.putU64(LEGACY_DEV_SUPPORTED_FEATURES, f);
        if (has(f, VIRTIO_NET_F_MTU())) {
            w.putU16(VDPA_ATTR_DEV_NET_CFG_MTU, Short.toUnsignedInt(virtio_net_config.mtu(c)));
        }
        if (has(f, VIRTIO_NET_F_MAC())) {
            w.putBytes(VDPA_ATTR_DEV_NET_CFG_MACADDR, virtio_net_config.mac(c).toArray(ValueLayout.JAVA_BYTE));
        }
        if (has(f, VIRTIO_NET_F_MQ()) || has(f, VIRTIO_NET_F_RSS())) {
            w.putU16(VDPA_ATTR_DEV_NET_CFG_MAX_VQP, Short.toUnsignedInt(virtio_net_config.max_virtqueue_pairs(c)));
        }
    }

    private static void writeBlockConfig(SkBuff w, long f, MemorySegment c) {
        w.putU64(VDPA_ATTR_DEV_BLK_CFG_CAPACITY, virtio_blk_config.capacity(c));
        if (has(f, VIRTIO_BLK_F_SIZE_MAX())) {
            w.putU32(VDPA_ATTR_DEV_BLK_CFG_SIZE_MAX, virtio_blk_config.size_max(c));
        }
        if (has(f, VIRTIO_BLK_F_BLK_SIZE())) {
            w.putU32(VDPA_ATTR_DEV_BLK_CFG_BLK_SIZE, virtio_blk_config.blk_size(c));
        }
        if (has(f, VIRTIO_BLK_F_SEG_MAX())) {
            w.putU32(VDPA_ATTR_DEV_BLK_CFG_SEG_MAX, virtio_blk_config.seg_max(c));
        }
        if (has(f, VIRTIO_BLK_F_MQ())) {
            w.putU16(VDPA_ATTR_DEV_BLK_CFG_NUM_QUEUES, Short.toUnsignedInt(virtio_blk_config.num_queues(c)));
        }
        if (has(f, VIRTIO_BLK_F_TOPOLOGY())) {
            w.putU8(VDPA_ATTR_DEV_BLK_CFG_PHY_BLK_EXP, Byte.toUnsignedInt(virtio_blk_config.physical_block_exp(c)));
            w.putU8(VDPA_ATTR_DEV_BLK_CFG_ALIGN_OFFSET, Byte.toUnsignedInt(virtio_blk_config.alignment_offset(c)));
            w.putU16(VDPA_ATTR_DEV_BLK_CFG_MIN_IO_SIZE, Short.toUnsignedInt(virtio_blk_config.min_io_size(c)));
            w.putU32(VDPA_ATTR_DEV_BLK_CFG_OPT_IO_SIZE, virtio_blk_config.opt_io_size(c));
        }
        if (has(f, VIRTIO_BLK_F_DISCARD())) {
            w.putU32(VDPA_ATTR_DEV_BLK_CFG_MAX_DISCARD_SEC, virtio_blk_config.max_discard_sectors(c));
            w.putU32(VDPA_ATTR_DEV_BLK_CFG_MAX_DISCARD_SEG, virtio_blk_config.max_discard_seg(c));
            w.putU32(VDPA_ATTR_DEV_BLK_CFG_DISCARD_SEC_ALIGN, virtio_blk_config.discard_sector_alignment(c));
        }
        if (has(f, VIRTIO_BLK_F_WRITE_ZEROES())) {
            w.putU32(VDPA_ATTR_DEV_BLK_CFG_MAX_WRITE_ZEROES_SEC, virtio_blk_config.max_write_zeroes_sectors(c));
            w.putU32(VDPA_ATTR_DEV_BLK_CFG_MAX_WRITE_ZEROES_SEG, virtio_blk_config.max_write_zeroes_seg(c));
        }
        w.putU8(VDPA_ATTR_DEV_BLK_READ_ONLY, has(f, VIRTIO_BLK_F_RO()) ? 1 : 0);
        w.putU8(VDPA_ATTR_DEV_BLK_FLUSH, has(f, VIRTIO_BLK_F_FLUSH()) ? 1 : 0);
    }

    /** get_config into a zeroed struct: a device's config space may be shorter than the uapi struct. */
    private static MemorySegment config(NetlinkDeviceView d, long structSize) {
        byte[] space = d.configSpace();
        byte[] c = Arrays.copyOf(space, (int) Math.max(structSize, space.length));
        return MemorySegment.ofArray(c);
    }

    private static boolean has(long features, int bit) {
        return (features & bit(bit)) != 0;
    }

    /** BIT_ULL: an attribute's bit in the provisioning masks, a feature's bit in a feature word. */
    private static long bit(int n) {
        return 1L << n;
    }

    /** is_valid_ether_addr (include/linux/etherdevice.h): not multicast and not all zeroes. */
    private static boolean isValidEtherAddr(byte[] mac) {
        return VdpaDeviceRules.unicastMacProblem(mac) == null;
    }

    // ------------------------------------------------------------------ DEV_VSTATS_GET

    /** vdpa_nl_cmd_dev_stats_get_doit and vdpa_dev_vendor_stats_fill. */
    private void vstatsGet(GenlRequestContext r, Replies out) {
        RequestAttributes a = r.attributes();
        String name = requireDevName(a);
        if (!a.has(VDPA_ATTR_DEV_QUEUE_INDEX)) {
            throw KernelError.of(Errno.EINVAL, "no DEV_QUEUE_INDEX");
        }
        long index = a.unsigned(VDPA_ATTR_DEV_QUEUE_INDEX);
        NetlinkDeviceView d = deviceByName(name);
        requireManaged(d, "unmanaged vdpa device");
        if (d.virtioId() != VIRTIO_ID_NET()) {
            throw KernelError.of(Errno.EOPNOTSUPP, "vendor statistics exist for net devices only");
        }
        if (index > MAX_QUEUE_INDEX) {
            throw new KernelError(Errno.ERANGE, kernel.netlink().queueIndexText(), "queue index " + index);
        }
        if (!d.hasVendorStats()) {
            throw KernelError.of(Errno.EOPNOTSUPP, d.name() + " has no get_vendor_vq_stats");
        }
        if ((d.status() & FEATURES_OK) == 0) {
            throw new KernelError(Errno.EAGAIN, MOD + "feature negotiation not complete", "status 0x" + Integer.toHexString(d.status()));
        }
        long negotiated = d.negotiatedFeatures();
        List<Map.Entry<String, Long>> stats = d.vendorStats((int) index);
        SkBuff w = out.reply(VDPA_CMD_DEV_VSTATS_GET());
        w.putString(VDPA_ATTR_DEV_NAME, d.name());
        w.putU32(VDPA_ATTR_DEV_ID, d.virtioId());
        w.putU64(VDPA_ATTR_DEV_NEGOTIATED_FEATURES, negotiated);
        if (has(negotiated, VIRTIO_NET_F_MQ()) || has(negotiated, VIRTIO_NET_F_RSS())) {
            MemorySegment c = config(d, virtio_net_config.sizeof());
            w.putU16(VDPA_ATTR_DEV_NET_CFG_MAX_VQP, Short.toUnsignedInt(virtio_net_config.max_virtqueue_pairs(c)));
        }
        w.putU32(VDPA_ATTR_DEV_QUEUE_INDEX, (int) index);
        for (Map.Entry<String, Long> s : stats) {
            w.putString(VDPA_ATTR_DEV_VENDOR_ATTR_NAME, s.getKey());
            w.putU64(VDPA_ATTR_DEV_VENDOR_ATTR_VALUE, s.getValue());
        }
    }

    // ------------------------------------------------------------------ DEV_ATTR_SET

    /** vdpa_nl_cmd_dev_attr_set_doit and vdpa_dev_net_device_attr_set. */
    private void attrSet(GenlRequestContext r, Replies out) {
        RequestAttributes a = r.attributes();
        String name = requireDevName(a);
        NetlinkDeviceView d = deviceByName(name);
        requireManaged(d, "unmanaged vdpa device");
        if ((d.mgmtDevice().supportedClasses() & (1L << VIRTIO_ID_NET())) == 0) {
            r.extack().message(MOD + name + " device not supported");
            return;
        }
        if (!a.has(VDPA_ATTR_DEV_NET_CFG_MACADDR)) {
            throw KernelError.of(Errno.EOPNOTSUPP, "DEV_ATTR_SET without a MAC sets nothing");
        }
        byte[] mac = a.bytes(VDPA_ATTR_DEV_NET_CFG_MACADDR);
        if (!isValidEtherAddr(mac)) {
            throw new KernelError(Errno.EOPNOTSUPP, MOD + "Invalid MAC address", "multicast or zero MAC");
        }
        d.setMacAddress(mac);
    }
}
