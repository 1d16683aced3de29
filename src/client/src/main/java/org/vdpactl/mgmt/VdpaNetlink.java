package org.vdpactl.mgmt;

import static org.vdpactl.mgmt.VdpaAttribute.*;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.vdpactl.ffi.gen.vhost.vhost_h;
import org.vdpactl.netlink.GenlFamily;
import org.vdpactl.netlink.GenlPolicy;
import org.vdpactl.netlink.GenlReply;
import org.vdpactl.netlink.GenlRequest;
import org.vdpactl.netlink.GenlSocket;
import org.vdpactl.netlink.MessageWriter;
import org.vdpactl.netlink.NetlinkException;
import org.vdpactl.netlink.NetlinkMessage.GenlMessage;
import org.vdpactl.sys.Errno;
import org.vdpactl.sys.Syscalls;

/**
 * Client of the {@code vdpa} generic netlink family: what iproute2's {@code vdpa} tool does, as a
 * library. Works against the real kernel and the fake one alike (it only sees {@link Syscalls}).
 *
 * <p>Errors are {@link NetlinkException}s carrying the errno and the kernel's extack text, with a
 * hint where the kernel's answer is cryptic: EPERM names CAP_NET_ADMIN, and the attribute mask of
 * "Some provided attributes are not supported: 0x1000" is decoded into option names.
 */
public final class VdpaNetlink implements AutoCloseable {
    public static final String FAMILY_NAME = "vdpa";
    private static final Pattern UNSUPPORTED_MASK = Pattern.compile("not supported: 0x([0-9a-fA-F]+)");
    private static final String NEEDS_CAP = "CAP_NET_ADMIN is needed (run as root or grant the capability)";

    private final GenlSocket socket;
    private final GenlFamily family;
    private final int version;
    private VdpaAttributeSupport attributeSupport;

    private VdpaNetlink(GenlSocket socket, GenlFamily family) {
        this.socket = socket;
        this.family = family;
        this.version = vhost_h.VDPA_GENL_VERSION();
    }

    /** Opens a socket and resolves the family; {@link FamilyNotAvailableException} when it does not exist. */
    public static VdpaNetlink open(Syscalls sys) {
        return open(sys, GenlSocket.Options.DEFAULT);
    }

    public static VdpaNetlink open(Syscalls sys, GenlSocket.Options options) {
        GenlSocket s = GenlSocket.open(sys, options);
        try {
            return new VdpaNetlink(s, s.resolveFamily(FAMILY_NAME));
        } catch (NetlinkException e) {
            s.close();
            throw e.errno() == Errno.ENOENT ? new FamilyNotAvailableException(e) : e;
        } catch (RuntimeException e) {
            s.close();
            throw e;
        }
    }

    /** The family as the kernel described it (id, maxattr, supported commands). */
    public GenlFamily family() {
        return family;
    }

    /**
     * Which attributes each command of this kernel accepts: from nlctrl's policy dump, or from
     * maxattr when the kernel refuses it. Asked once per instance.
     */
    public synchronized VdpaAttributeSupport attributeSupport() {
        if (attributeSupport == null) {
            attributeSupport = VdpaAttributeSupport.probe(family, () -> GenlPolicy.dump(socket, FAMILY_NAME));
        }
        return attributeSupport;
    }

    /** The underlying socket, for callers that need raw access. */
    public GenlSocket socket() {
        return socket;
    }

    /** True on kernels before 6.2, whose attribute 21 meant device features (VDPA_ATTR_MAX 22). */
    public boolean legacyAttributeNumbering() {
        return family.maxAttr() <= DEV_BLK_CFG_CAPACITY.number() + 1;
    }

    // ---------------------------------------------------------------- management devices

    /** Every management device (MGMTDEV_GET dump), in registration order. */
    public List<MgmtDevInfo> mgmtDevices() {
        return dump(VdpaCommand.MGMTDEV_GET, "dump", null).stream().map(m -> VdpaReplies.mgmtDev(m.attributes())).toList();
    }

    /** One management device by handle ("bus/dev" or "dev"). */
    public MgmtDevInfo mgmtDevice(String handle) {
        MgmtHandle h = MgmtHandle.parse(handle);
        return VdpaReplies.mgmtDev(doit(VdpaCommand.MGMTDEV_GET, handle, w -> putMgmtHandle(w, h.bus(), h.dev()))
                .single().attributes());
    }

    // ---------------------------------------------------------------- devices

    /** Every netlink-created device (DEV_GET dump), in creation order. */
    public List<VdpaDevInfo> devices() {
        return dump(VdpaCommand.DEV_GET, "dump", null).stream().map(m -> VdpaReplies.device(m.attributes())).toList();
    }

    public VdpaDevInfo device(String name) {
        return VdpaReplies.device(doit(VdpaCommand.DEV_GET, name, w -> w.putString(DEV_NAME, name)).single().attributes());
    }

    /** Creates a device (DEV_NEW); needs CAP_NET_ADMIN. */
    public void addDevice(DeviceSpec spec) {
        try {
            sendDevNew(spec);
        } catch (NetlinkException e) {
            throw withProvidedAttributes(e, spec);
        }
    }

    /**
     * Linux 6.1 refuses attributes outside the management device's mask without saying which
     * ("All provided attributes are not supported"); the request's own attributes are then the candidates.
     */
    private static NetlinkException withProvidedAttributes(NetlinkException e, DeviceSpec spec) {
        if (e.errno() != Errno.EOPNOTSUPP || e.extackMessage() == null
                || UNSUPPORTED_MASK.matcher(e.extackMessage()).find()) {
            return e;
        }
        long provided = (spec.mac() != null ? DEV_NET_CFG_MACADDR.maskBit() : 0)
                | (spec.mtu() != null ? DEV_NET_CFG_MTU.maskBit() : 0)
                | (spec.maxVqPairs() != null ? DEV_NET_CFG_MAX_VQP.maskBit() : 0)
                | (spec.deviceFeatures() != null ? DEV_FEATURES.maskBit() : 0);
        if (provided == 0) {
            return e;
        }
        return e.withContext(e.operation(), "the management device does not accept one of: "
                + String.join(", ", VdpaAttribute.describeMask(provided)) + " (this kernel does not say which)");
    }

    private void sendDevNew(DeviceSpec spec) {
        doit(VdpaCommand.DEV_NEW, spec.name(), w -> {
            putMgmtHandle(w, spec.mgmtBusName(), spec.mgmtDevName());
            w.putString(DEV_NAME, spec.name());
            if (spec.mac() != null) {
                w.putBytes(DEV_NET_CFG_MACADDR, spec.mac().octets());
            }
            if (spec.mtu() != null) {
                w.putU16(DEV_NET_CFG_MTU, spec.mtu());
            }
            if (spec.maxVqPairs() != null) {
                w.putU16(DEV_NET_CFG_MAX_VQP, spec.maxVqPairs());
            }
            if (spec.deviceFeatures() != null) {
                w.putU64(DEV_FEATURES, spec.deviceFeatures());
            }
        });
    }

    /** Deletes a device (DEV_DEL) waiting at most the socket's timeout for the answer. */
    public void deleteDevice(String name) {
        deleteDevice(name, null);
    }

    /**
     * Deletes a device. While {@code /dev/vhost-vdpa-N} of the device is open the kernel holds
     * the request (the sending call itself blocks, with the vdpa lock taken) until the node is
     * closed; {@code timeout} bounds only the wait for the answer afterwards (null = the socket's,
     * negative = forever).
     */
    public void deleteDevice(String name, Duration timeout) {
        doit(VdpaCommand.DEV_DEL, name, w -> w.putString(DEV_NAME, name), timeout);
    }

    // ---------------------------------------------------------------- config, stats, attributes

    /** The configuration of every device (DEV_CONFIG_GET dump). */
    public List<DevConfig> configs() {
        boolean legacy = legacyAttributeNumbering();
        return dump(VdpaCommand.DEV_CONFIG_GET, "dump", null).stream().map(m -> VdpaReplies.config(m.attributes(), legacy)).toList();
    }

    public DevConfig config(String name) {
        return VdpaReplies.config(doit(VdpaCommand.DEV_CONFIG_GET, name, w -> w.putString(DEV_NAME, name))
                .single().attributes(), legacyAttributeNumbering());
    }

    /** Vendor statistics of one queue (DEV_VSTATS_GET); needs CAP_NET_ADMIN and FEATURES_OK. */
    public VendorStats vendorStats(String name, int queueIndex) {
        return VdpaReplies.vendorStats(doit(VdpaCommand.DEV_VSTATS_GET, name + " qidx " + Integer.toUnsignedString(queueIndex), w -> {
            w.putString(DEV_NAME, name);
            w.putU32(DEV_QUEUE_INDEX, queueIndex);
        }).single().attributes());
    }

    /**
     * Sets a device's MAC address (DEV_ATTR_SET, Linux 6.12+). Returns the kernel's warning when it
     * accepted the request without doing anything (a block device: "vdpa: vdpa1 device not supported").
     */
    public Optional<String> setMacAddress(String name, MacAddress mac) {
        return doit(VdpaCommand.DEV_ATTR_SET, name + " mac " + mac, w -> {
            w.putString(DEV_NAME, name);
            w.putBytes(DEV_NET_CFG_MACADDR, mac.octets());
        }).ackMessage();
    }

    @Override
    public void close() {
        socket.close();
    }

    // ---------------------------------------------------------------- plumbing

    private static void putMgmtHandle(MessageWriter w, String bus, String dev) {
        if (bus != null) {
            w.putString(MGMTDEV_BUS_NAME, bus);
        }
        w.putString(MGMTDEV_DEV_NAME, dev);
    }

    private GenlReply doit(VdpaCommand cmd, String what, Consumer<MessageWriter> attrs) {
        return doit(cmd, what, attrs, null);
    }

    private GenlReply doit(VdpaCommand cmd, String what, Consumer<MessageWriter> attrs, Duration timeout) {
        GenlRequest req = new GenlRequest(cmd.constantName() + " " + what, family.id(), cmd.number(), version, attrs, timeout);
        return explained(cmd, () -> socket.doit(req));
    }

    private List<GenlMessage> dump(VdpaCommand cmd, String what, Consumer<MessageWriter> attrs) {
        GenlRequest req = GenlRequest.of(cmd.constantName() + " " + what, family.id(), cmd.number(), version, attrs);
        return explained(cmd, () -> socket.dump(req));
    }

    private <T> T explained(VdpaCommand cmd, Supplier<T> call) {
        try {
            return call.get();
        } catch (NetlinkException e) {
            String hint = hintFor(cmd, e);
            throw hint == null ? e : e.withContext(e.operation(), hint);
        }
    }

    /** What the kernel's answer means, where its own text does not say it. */
    String hintFor(VdpaCommand cmd, NetlinkException e) {
        String msg = e.extackMessage();
        return switch (e.errno()) {
            case Errno.EPERM -> NEEDS_CAP;
            case Errno.ENOENT -> "the vdpa family answers only in the initial network namespace";
            case Errno.EOPNOTSUPP -> {
                if (msg != null) {
                    Matcher m = UNSUPPORTED_MASK.matcher(msg);
                    if (m.find()) {
                        long mask = Long.parseUnsignedLong(m.group(1), 16);
                        yield "the management device does not accept: " + String.join(", ", VdpaAttribute.describeMask(mask));
                    }
                }
                if (!family.supports(cmd.number())) {
                    yield "this kernel has no " + cmd.constantName();
                }
                yield null;
            }
            case Errno.EAGAIN -> cmd == VdpaCommand.DEV_VSTATS_GET ? "statistics exist once a driver set FEATURES_OK" : null;
            case Errno.EEXIST -> cmd == VdpaCommand.DEV_NEW ? "a vDPA device of that name already exists" : null;
            // mlx5_vdpa_dev_add refuses a second device on its management device (one per PCI function or SF), and
            // says nothing else: the operator's question is which device holds it and what to do instead
            case Errno.ENOSPC -> cmd == VdpaCommand.DEV_NEW ? "the management device has no room for another device (mlx5_vdpa"
                    + " takes one per PCI function or SF): `dev list` shows the one it has; delete it first, or add the"
                    + " device on another function (a VF or SF of the card)" : null;
            default -> null;
        };
    }
}
