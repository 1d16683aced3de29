package org.vdpactl.fake.netlink;

import static org.vdpactl.mgmt.VdpaAttribute.*;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.vdpactl.fake.bus.KernelError;
import org.vdpactl.fake.bus.MgmtDevice;
import org.vdpactl.fake.bus.Provisioning;
import org.vdpactl.fake.bus.VdpaBus;
import org.vdpactl.fake.bus.VdpaDevice;
import org.vdpactl.fake.kernel.KernelProfile;
import org.vdpactl.fake.kernel.KernelProfiles;
import org.vdpactl.ffi.gen.vhost.vhost_h;
import org.vdpactl.ffi.gen.vhost.virtio_blk_config;
import org.vdpactl.ffi.gen.vhost.virtio_net_config;
import org.vdpactl.mgmt.MacAddress;
import org.vdpactl.mgmt.VdpaCommand;
import org.vdpactl.mgmt.VirtioNames;
import org.vdpactl.netlink.MessageWriter;
import org.vdpactl.sys.Errno;

/**
 * The "vdpa" family of {@code drivers/vdpa/vdpa.c} as Linux 6.12 has it, over a {@link VdpaBus}:
 * the strict policy, the op table (ADMIN_PERM on DEV_NEW/DEL/VSTATS/ATTR_SET), each handler's
 * checks in the kernel's order with its extack texts, and each reply's attributes in the
 * kernel's order and widths. Device-specific answers (feature checks at dev_add, vendor
 * statistics, set_attr) come from the bus.
 */
final class VdpaFamily extends FakeGenlFamily {
    private static final String MOD = "vdpa: ";
    /** VIRTIO_NET_CTRL_MQ_VQ_PAIRS_MAX: the highest queue index VSTATS accepts. */
    private static final long MAX_QUEUE_INDEX = 0x8000;
    private static final long NET_ATTRS_MASK = DEV_NET_CFG_MACADDR.maskBit() | DEV_NET_CFG_MTU.maskBit() | DEV_NET_CFG_MAX_VQP.maskBit();
    /** VIRTIO_DEVICE_F_MASK: every bit outside the transport range 28..42. */
    private static final long DEVICE_F_MASK = (~0L << (VirtioNames.TRANSPORT_F_END + 1)) | ((1L << VirtioNames.TRANSPORT_F_START) - 1);
    private static final int FEATURES_OK = vhost_h.VIRTIO_CONFIG_S_FEATURES_OK();
    /** VDPA_ATTR_VDPA_DEV_SUPPORTED_FEATURES: where kernels before 6.2 put the device features. */
    static final int LEGACY_DEV_FEATURES = 21;

    private final VdpaBus bus;
    private final KernelProfile kernel;
    private final AttrPolicy[] policy;
    private final List<Op> ops;

    VdpaFamily(VdpaBus bus) {
        this(bus, KernelProfiles.defaultProfile());
    }

    /** The family as the given Linux version registers it: its commands, maxattr and reply layout. */
    VdpaFamily(VdpaBus bus, KernelProfile kernel) {
        this.bus = bus;
        this.kernel = kernel;
        this.policy = policy(kernel.netlink().maxAttr());
        this.ops = Stream.of(
                op(VdpaCommand.MGMTDEV_GET, false, this::mgmtdevGet, this::mgmtdevDump),
                op(VdpaCommand.DEV_NEW, true, this::devNew, null),
                op(VdpaCommand.DEV_DEL, true, this::devDel, null),
                op(VdpaCommand.DEV_GET, false, this::devGet, this::devDump),
                op(VdpaCommand.DEV_CONFIG_GET, false, this::configGet, this::configDump),
                op(VdpaCommand.DEV_VSTATS_GET, true, this::vstatsGet, null),
                op(VdpaCommand.DEV_ATTR_SET, true, this::attrSet, null))
                .filter(o -> kernel.has(VdpaCommand.of(o.cmd()).orElseThrow()))
                .toList();
    }

    private Op op(VdpaCommand cmd, boolean admin, DoHandler doit, DumpHandler dumpit) {
        return new Op(cmd.number(), admin, doit, dumpit, policy, true, true);
    }

    /** vdpa_nl_policy: the same entries from 6.1 to 7.2, in an array of VDPA_ATTR_MAX + 1. */
    private static AttrPolicy[] policy(int maxAttr) {
        AttrPolicy[] p = new AttrPolicy[maxAttr + 1];
        Arrays.fill(p, AttrPolicy.UNSPEC);
        p[MGMTDEV_BUS_NAME.number()] = AttrPolicy.NUL_STRING;
        p[MGMTDEV_DEV_NAME.number()] = AttrPolicy.STRING;
        p[DEV_NAME.number()] = AttrPolicy.STRING;
        p[DEV_NET_CFG_MACADDR.number()] = AttrPolicy.ETH_ADDR;
        p[DEV_NET_CFG_MAX_VQP.number()] = AttrPolicy.U16;
        p[DEV_NET_CFG_MTU.number()] = AttrPolicy.u16Min(68);
        p[DEV_QUEUE_INDEX.number()] = AttrPolicy.U32;
        p[DEV_FEATURES.number()] = AttrPolicy.U64;
        return p;
    }

    @Override
    public String name() {
        return "vdpa";
    }

    @Override
    public int version() {
        return vhost_h.VDPA_GENL_VERSION();
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
        return VdpaCommand.DEV_VSTATS_GET.number() + 1;
    }

    @Override
    public List<Op> ops() {
        return ops;
    }

    @Override
    public String faultCallName(int cmd) {
        return VdpaCommand.of(cmd).map(VdpaCommand::constantName).orElse(null);
    }

    @Override
    public String faultDevice(GenlRequestContext r) {
        RequestAttributes a = r.attributes();
        if (a.has(DEV_NAME.number())) {
            return a.cString(DEV_NAME.number());
        }
        return a.has(MGMTDEV_DEV_NAME.number()) ? a.cString(MGMTDEV_DEV_NAME.number()) : null;
    }

    // ------------------------------------------------------------------ lookups

    /** vdpa_mgmtdev_get_from_attr: EINVAL without a name, ENODEV without a match. */
    private MgmtDevice mgmtdevFromAttrs(RequestAttributes a, String extack) {
        if (!a.has(MGMTDEV_DEV_NAME.number())) {
            throw new KernelError(Errno.EINVAL, MOD + extack, "no MGMTDEV_DEV_NAME");
        }
        String dev = a.cString(MGMTDEV_DEV_NAME.number());
        String busName = a.has(MGMTDEV_BUS_NAME.number()) ? a.cString(MGMTDEV_BUS_NAME.number()) : null;
        return bus.managementDevice(busName, dev)
                .orElseThrow(() -> new KernelError(Errno.ENODEV, MOD + extack, "no mgmtdev " + busName + "/" + dev));
    }

    private static String requireDevName(RequestAttributes a) {
        if (!a.has(DEV_NAME.number())) {
            throw KernelError.of(Errno.EINVAL, "no DEV_NAME");
        }
        return a.cString(DEV_NAME.number());
    }

    /** bus_find_device by name: ENODEV "device not found". */
    private VdpaDevice deviceByName(String name) {
        return bus.device(name).orElseThrow(() -> new KernelError(Errno.ENODEV, MOD + "device not found", "no device " + name));
    }

    /** The kernel's "!vdev->mdev" check: only netlink-created devices are managed. */
    private static void requireManaged(VdpaDevice d, String extack) {
        if (d.mgmtDevice() == null) {
            throw new KernelError(Errno.EINVAL, extack == null ? null : MOD + extack, d.name() + " was not created over netlink");
        }
    }

    // ------------------------------------------------------------------ MGMTDEV_GET

    private void mgmtdevGet(GenlRequestContext r, Replies out) {
        MgmtDevice m = mgmtdevFromAttrs(r.attributes(), "Fail to find the specified mgmt device");
        writeMgmtdev(out.reply(VdpaCommand.MGMTDEV_NEW.number()), m);
    }

    private int mgmtdevDump(GenlRequestContext r, long[] cursor, DumpWriter out) {
        List<MgmtDevice> all = bus.managementDevices();
        int idx = 0;
        for (MgmtDevice m : all) {
            if (idx < cursor[0]) {
                idx++;
                continue;
            }
            if (!out.add(VdpaCommand.MGMTDEV_NEW.number(), w -> writeMgmtdev(w, m))) {
                break;
            }
            idx++;
        }
        cursor[0] = idx;
        return out.length();
    }

    /** vdpa_mgmtdev_fill. */
    private static void writeMgmtdev(MessageWriter w, MgmtDevice m) {
        writeHandle(w, m);
        w.putU64(MGMTDEV_SUPPORTED_CLASSES.number(), m.supportedClasses());
        w.putU32(DEV_MGMTDEV_MAX_VQS.number(), m.maxSupportedVqs());
        w.putU64(DEV_SUPPORTED_FEATURES.number(), m.supportedFeatures());
    }

    /** vdpa_nl_mgmtdev_handle_fill. */
    private static void writeHandle(MessageWriter w, MgmtDevice m) {
        if (m.busName() != null) {
            w.putString(MGMTDEV_BUS_NAME.number(), m.busName());
        }
        w.putString(MGMTDEV_DEV_NAME.number(), m.devName());
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
        if (a.has(DEV_NET_CFG_MACADDR.number())) {
            mac = a.bytes(DEV_NET_CFG_MACADDR.number());
            mask |= DEV_NET_CFG_MACADDR.maskBit();
        }
        if (a.has(DEV_NET_CFG_MTU.number())) {
            mtu = a.u16(DEV_NET_CFG_MTU.number());
            mask |= DEV_NET_CFG_MTU.maskBit();
        }
        if (a.has(DEV_NET_CFG_MAX_VQP.number())) {
            pairs = a.u16(DEV_NET_CFG_MAX_VQP.number());
            if (pairs == 0) {
                throw new KernelError(Errno.EINVAL, MOD + "At least one pair of VQs is required", "max_vqp 0");
            }
            mask |= DEV_NET_CFG_MAX_VQP.maskBit();
        }
        if (a.has(DEV_FEATURES.number())) {
            features = a.u64(DEV_FEATURES.number());
            long missing = 0;
            if (mac != null && (features & (1L << vhost_h.VIRTIO_NET_F_MAC())) == 0) {
                missing |= 1L << vhost_h.VIRTIO_NET_F_MAC();
            }
            if (mtu != null && (features & (1L << vhost_h.VIRTIO_NET_F_MTU())) == 0) {
                missing |= 1L << vhost_h.VIRTIO_NET_F_MTU();
            }
            if (pairs != null && pairs > 1 && (features & (1L << VirtioNames.NET_F_MQ)) == 0) {
                missing |= 1L << VirtioNames.NET_F_MQ;
            }
            // 6.1 has no such check: it goes on to the mgmtdev lookup (docs/kernel-profiles.md)
            if (missing != 0 && kernel.netlink().devNewChecksFeatureBits()) {
                throw new KernelError(Errno.EINVAL, MOD + "Missing features 0x" + Long.toHexString(missing)
                        + " for provided attributes", "features lack bits for the given attributes");
            }
            mask |= DEV_FEATURES.maskBit();
        }
        if ((mask & NET_ATTRS_MASK) != 0 && !r.caller().hasCapNetAdmin()) {
            throw KernelError.of(Errno.EPERM, "net attributes need CAP_NET_ADMIN");
        }
        MgmtDevice m = mgmtdevFromAttrs(a, "Fail to find the specified management device");
        long unsupported = mask & ~m.provisionableAttributes();
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
        if ((mask & NET_ATTRS_MASK) != 0 && (classes & (1L << VirtioNames.ID_NET)) == 0) {
            throw new KernelError(Errno.EINVAL, MOD + "Network class attributes provided on unsupported management device",
                    "net attributes for a non-net mgmtdev");
        }
        if ((mask & NET_ATTRS_MASK) == 0 && features != null && (classes & (1L << VirtioNames.ID_NET)) != 0
                && Long.bitCount(classes) > 1 && (features & DEVICE_F_MASK) != 0) {
            throw new KernelError(Errno.EINVAL, MOD + "Management device supports multi-class while device features specified are ambiguous",
                    "device features on a multi-class mgmtdev");
        }
    }

    // ------------------------------------------------------------------ DEV_DEL

    private void devDel(GenlRequestContext r, Replies out) {
        VdpaDevice d = deviceByName(requireDevName(r.attributes()));
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
        VdpaDevice d = deviceByName(requireDevName(r.attributes()));
        requireManaged(d, null);
        writeDevice(out.reply(VdpaCommand.DEV_NEW.number()), d);
    }

    private int devDump(GenlRequestContext r, long[] cursor, DumpWriter out) {
        return dumpDevices(cursor, out, d -> out.add(VdpaCommand.DEV_NEW.number(), w -> writeDevice(w, d)));
    }

    /** vdpa_dev_fill. */
    private static void writeDevice(MessageWriter w, VdpaDevice d) {
        writeHandle(w, d.mgmtDevice());
        w.putString(DEV_NAME.number(), d.name());
        w.putU32(DEV_ID.number(), d.virtioId());
        w.putU32(DEV_VENDOR_ID.number(), d.vendorId());
        w.putU32(DEV_MAX_VQS.number(), d.maxVqs());
        w.putU16(DEV_MAX_VQ_SIZE.number(), d.maxVqSize());
        w.putU16(DEV_MIN_VQ_SIZE.number(), d.minVqSize());
    }

    /** The walk of bus_for_each_dev with cb->args[0] as the restart index, skipping unmanaged devices. */
    private int dumpDevices(long[] cursor, DumpWriter out, Predicate<VdpaDevice> fill) {
        int idx = 0;
        for (VdpaDevice d : bus.devices()) {
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
        VdpaDevice d = deviceByName(requireDevName(r.attributes()));
        requireManaged(d, "unmanaged vdpa device");
        checkConfigSupported(d);
        writeConfig(out.reply(VdpaCommand.DEV_CONFIG_GET.number()), d);
    }

    private int configDump(GenlRequestContext r, long[] cursor, DumpWriter out) {
        return dumpDevices(cursor, out, d -> {
            checkConfigSupported(d);
            return out.add(VdpaCommand.DEV_CONFIG_GET.number(), w -> writeConfig(w, d));
        });
    }

    private void checkConfigSupported(VdpaDevice d) {
        boolean blk = d.virtioId() == VirtioNames.ID_BLOCK && !kernel.netlink().legacyDeviceFeaturesAttr();
        if (d.virtioId() != VirtioNames.ID_NET && !blk) {
            // 6.1's vdpa_dev_config_fill knows only net devices
            throw KernelError.of(Errno.EOPNOTSUPP, "no config reply for virtio id " + d.virtioId());
        }
    }

    /** vdpa_dev_config_fill with the net and blk fills. */
    private void writeConfig(MessageWriter w, VdpaDevice d) {
        if (kernel.netlink().legacyDeviceFeaturesAttr()) {
            writeLegacyNetConfig(w, d);
            return;
        }
        w.putString(DEV_NAME.number(), d.name());
        w.putU32(DEV_ID.number(), d.virtioId());
        if ((d.status() & FEATURES_OK) != 0) {
            w.putU64(DEV_NEGOTIATED_FEATURES.number(), d.negotiatedFeatures());
        }
        long f = d.deviceFeatures();
        w.putU64(DEV_FEATURES.number(), f);
        if (d.virtioId() == VirtioNames.ID_NET) {
            MemorySegment c = config(d, virtio_net_config.sizeof());
            if (has(f, vhost_h.VIRTIO_NET_F_MTU())) {
                w.putU16(DEV_NET_CFG_MTU.number(), Short.toUnsignedInt(virtio_net_config.mtu(c)));
            }
            if (has(f, vhost_h.VIRTIO_NET_F_MAC())) {
                w.putAttribute(DEV_NET_CFG_MACADDR.number(), virtio_net_config.mac(c).toArray(ValueLayout.JAVA_BYTE));
            }
            if (has(f, vhost_h.VIRTIO_NET_F_STATUS())) {
                w.putU16(DEV_NET_STATUS.number(), Short.toUnsignedInt(virtio_net_config.status(c)));
            }
            if (has(f, VirtioNames.NET_F_MQ) || has(f, VirtioNames.NET_F_RSS)) {
                w.putU16(DEV_NET_CFG_MAX_VQP.number(), Short.toUnsignedInt(virtio_net_config.max_virtqueue_pairs(c)));
            }
        } else {
            writeBlockConfig(w, f, config(d, virtio_blk_config.sizeof()));
        }
    }

    /** 6.1's vdpa_dev_config_fill + vdpa_dev_net_config_fill: status always, features as attribute 21. */
    private static void writeLegacyNetConfig(MessageWriter w, VdpaDevice d) {
        w.putString(DEV_NAME.number(), d.name());
        w.putU32(DEV_ID.number(), d.virtioId());
        if ((d.status() & FEATURES_OK) != 0) {
            w.putU64(DEV_NEGOTIATED_FEATURES.number(), d.negotiatedFeatures());
        }
        MemorySegment c = config(d, virtio_net_config.sizeof());
        w.putU16(DEV_NET_STATUS.number(), Short.toUnsignedInt(virtio_net_config.status(c)));
        long f = d.deviceFeatures();
        w.putU64(LEGACY_DEV_FEATURES, f);
        if (has(f, vhost_h.VIRTIO_NET_F_MTU())) {
            w.putU16(DEV_NET_CFG_MTU.number(), Short.toUnsignedInt(virtio_net_config.mtu(c)));
        }
        if (has(f, vhost_h.VIRTIO_NET_F_MAC())) {
            w.putAttribute(DEV_NET_CFG_MACADDR.number(), virtio_net_config.mac(c).toArray(ValueLayout.JAVA_BYTE));
        }
        if (has(f, VirtioNames.NET_F_MQ) || has(f, VirtioNames.NET_F_RSS)) {
            w.putU16(DEV_NET_CFG_MAX_VQP.number(), Short.toUnsignedInt(virtio_net_config.max_virtqueue_pairs(c)));
        }
    }

    private static void writeBlockConfig(MessageWriter w, long f, MemorySegment c) {
        w.putU64(DEV_BLK_CFG_CAPACITY.number(), virtio_blk_config.capacity(c));
        if (has(f, vhost_h.VIRTIO_BLK_F_SIZE_MAX())) {
            w.putU32(DEV_BLK_CFG_SIZE_MAX.number(), virtio_blk_config.size_max(c));
        }
        if (has(f, vhost_h.VIRTIO_BLK_F_BLK_SIZE())) {
            w.putU32(DEV_BLK_CFG_BLK_SIZE.number(), virtio_blk_config.blk_size(c));
        }
        if (has(f, vhost_h.VIRTIO_BLK_F_SEG_MAX())) {
            w.putU32(DEV_BLK_CFG_SEG_MAX.number(), virtio_blk_config.seg_max(c));
        }
        if (has(f, vhost_h.VIRTIO_BLK_F_MQ())) {
            w.putU16(DEV_BLK_CFG_NUM_QUEUES.number(), Short.toUnsignedInt(virtio_blk_config.num_queues(c)));
        }
        if (has(f, vhost_h.VIRTIO_BLK_F_TOPOLOGY())) {
            w.putU8(DEV_BLK_CFG_PHY_BLK_EXP.number(), virtio_blk_config.physical_block_exp(c));
            w.putU8(DEV_BLK_CFG_ALIGN_OFFSET.number(), virtio_blk_config.alignment_offset(c));
            w.putU16(DEV_BLK_CFG_MIN_IO_SIZE.number(), Short.toUnsignedInt(virtio_blk_config.min_io_size(c)));
            w.putU32(DEV_BLK_CFG_OPT_IO_SIZE.number(), virtio_blk_config.opt_io_size(c));
        }
        if (has(f, vhost_h.VIRTIO_BLK_F_DISCARD())) {
            w.putU32(DEV_BLK_CFG_MAX_DISCARD_SEC.number(), virtio_blk_config.max_discard_sectors(c));
            w.putU32(DEV_BLK_CFG_MAX_DISCARD_SEG.number(), virtio_blk_config.max_discard_seg(c));
            w.putU32(DEV_BLK_CFG_DISCARD_SEC_ALIGN.number(), virtio_blk_config.discard_sector_alignment(c));
        }
        if (has(f, vhost_h.VIRTIO_BLK_F_WRITE_ZEROES())) {
            w.putU32(DEV_BLK_CFG_MAX_WRITE_ZEROES_SEC.number(), virtio_blk_config.max_write_zeroes_sectors(c));
            w.putU32(DEV_BLK_CFG_MAX_WRITE_ZEROES_SEG.number(), virtio_blk_config.max_write_zeroes_seg(c));
        }
        w.putU8(DEV_BLK_READ_ONLY.number(), has(f, vhost_h.VIRTIO_BLK_F_RO()) ? 1 : 0);
        w.putU8(DEV_BLK_FLUSH.number(), has(f, vhost_h.VIRTIO_BLK_F_FLUSH()) ? 1 : 0);
    }

    /** get_config into a zeroed struct: a device's config space may be shorter than the uapi struct. */
    private static MemorySegment config(VdpaDevice d, long structSize) {
        byte[] space = d.configSpace();
        byte[] c = Arrays.copyOf(space, (int) Math.max(structSize, space.length));
        return MemorySegment.ofArray(c);
    }

    private static boolean has(long features, int bit) {
        return (features & (1L << bit)) != 0;
    }

    // ------------------------------------------------------------------ DEV_VSTATS_GET

    /** vdpa_nl_cmd_dev_stats_get_doit and vdpa_dev_vendor_stats_fill. */
    private void vstatsGet(GenlRequestContext r, Replies out) {
        RequestAttributes a = r.attributes();
        String name = requireDevName(a);
        if (!a.has(DEV_QUEUE_INDEX.number())) {
            throw KernelError.of(Errno.EINVAL, "no DEV_QUEUE_INDEX");
        }
        long index = a.u32(DEV_QUEUE_INDEX.number());
        VdpaDevice d = deviceByName(name);
        requireManaged(d, "unmanaged vdpa device");
        if (d.virtioId() != VirtioNames.ID_NET) {
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
        MessageWriter w = out.reply(VdpaCommand.DEV_VSTATS_GET.number());
        w.putString(DEV_NAME.number(), d.name());
        w.putU32(DEV_ID.number(), d.virtioId());
        w.putU64(DEV_NEGOTIATED_FEATURES.number(), negotiated);
        if (has(negotiated, VirtioNames.NET_F_MQ) || has(negotiated, VirtioNames.NET_F_RSS)) {
            MemorySegment c = config(d, virtio_net_config.sizeof());
            w.putU16(DEV_NET_CFG_MAX_VQP.number(), Short.toUnsignedInt(virtio_net_config.max_virtqueue_pairs(c)));
        }
        w.putU32(DEV_QUEUE_INDEX.number(), (int) index);
        for (Map.Entry<String, Long> s : stats) {
            w.putString(DEV_VENDOR_ATTR_NAME.number(), s.getKey());
            w.putU64(DEV_VENDOR_ATTR_VALUE.number(), s.getValue());
        }
    }

    // ------------------------------------------------------------------ DEV_ATTR_SET

    /** vdpa_nl_cmd_dev_attr_set_doit and vdpa_dev_net_device_attr_set. */
    private void attrSet(GenlRequestContext r, Replies out) {
        RequestAttributes a = r.attributes();
        String name = requireDevName(a);
        VdpaDevice d = deviceByName(name);
        requireManaged(d, "unmanaged vdpa device");
        if ((d.mgmtDevice().supportedClasses() & (1L << VirtioNames.ID_NET)) == 0) {
            r.extack().message(MOD + name + " device not supported");
            return;
        }
        if (!a.has(DEV_NET_CFG_MACADDR.number())) {
            throw KernelError.of(Errno.EOPNOTSUPP, "DEV_ATTR_SET without a MAC sets nothing");
        }
        byte[] mac = a.bytes(DEV_NET_CFG_MACADDR.number());
        if (!MacAddress.of(mac).isValidUnicast()) {
            throw new KernelError(Errno.EOPNOTSUPP, MOD + "Invalid MAC address", "multicast or zero MAC");
        }
        d.setMacAddress(mac);
    }
}
