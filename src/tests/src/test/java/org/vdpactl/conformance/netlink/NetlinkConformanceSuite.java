package org.vdpactl.conformance.netlink;

import static org.vdpactl.abi.UapiGenlCtrlAttribute.*;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.vdpactl.mgmt.VdpaAttribute.*;
import static org.vdpactl.netlink.NetlinkAbi.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.vdpactl.conformance.Cleanup;
import org.vdpactl.abi.MacroValues;
import org.vdpactl.abi.KernelProfile;
import org.vdpactl.ffi.gen.libc.libc_h;
import org.vdpactl.mgmt.DevConfig;
import org.vdpactl.mgmt.DeviceSpec;
import org.vdpactl.mgmt.MacAddress;
import org.vdpactl.mgmt.MgmtDevInfo;
import org.vdpactl.mgmt.VdpaAttribute;
import org.vdpactl.mgmt.VdpaAttributeSupport;
import org.vdpactl.mgmt.VdpaCommand;
import org.vdpactl.mgmt.VdpaDevInfo;
import org.vdpactl.mgmt.VdpaNetlink;
import org.vdpactl.mgmt.VendorStats;
import org.vdpactl.netlink.Attribute;
import org.vdpactl.netlink.GenlFamily;
import org.vdpactl.netlink.GenlHeader;
import org.vdpactl.netlink.GenlPolicy;
import org.vdpactl.netlink.GenlRequest;
import org.vdpactl.netlink.GenlSocket;
import org.vdpactl.netlink.MessageWriter;
import org.vdpactl.netlink.NetlinkDecoder;
import org.vdpactl.netlink.NetlinkException;
import org.vdpactl.netlink.NetlinkHeader;
import org.vdpactl.netlink.NetlinkMessage;
import org.vdpactl.netlink.NetlinkMessage.DoneMessage;
import org.vdpactl.netlink.NetlinkMessage.ErrorMessage;
import org.vdpactl.netlink.NetlinkMessage.GenlMessage;
import org.vdpactl.sys.Errno;
import org.vdpactl.sys.SyscallException;
import org.vdpactl.sys.Syscalls;
import org.vdpactl.vhost.BlkConfig;
import org.vdpactl.vhost.NetConfig;
import org.vdpactl.vhost.VhostDeviceNodes;
import org.vdpactl.vhost.VhostIoctl;
import org.vdpactl.vhost.VhostNodeException;

/**
 * The vdpa generic-netlink contract, run unchanged against the fake kernel and a real 6.12
 * kernel: the same requests, the same expected values, errnos, extack texts, offsets, policy
 * nests and message sizes (verified-netlink.md). Nothing in here knows which backend it talks to.
 *
 * <p>Devices a case creates are named "nlcNN" (five characters, so their DEV_GET messages have
 * vdpa0's 88 bytes) and are deleted after the case.
 */
public abstract class NetlinkConformanceSuite {
    static final long NET_FEATURES = 0x308830028L;
    static final long BLK_DEVICE_FEATURES = 0x308007646L;
    static final MacAddress VDPA0_MAC = MacAddress.parse("02:00:00:00:00:01");
    static final Duration WAIT = Duration.ofSeconds(10);
    /** NLMSG_GOODSIZE on x86_64: the first dump datagram of a socket that never received more. */
    static final int FIRST_DUMP_DATAGRAM = 3776;
    static final int MAX_DUMP_DATAGRAM = 32448;

    private NetlinkBackend backend;
    private final Cleanup cleanup = new Cleanup();
    private final Set<String> created = new LinkedHashSet<>();
    private int familyId;

    /** A fresh backend for one case. */
    protected abstract NetlinkBackend backend();

    /** The kernel version whose facts (docs/kernel-profiles.md) the backend must show. */
    protected abstract KernelProfile kernel();

    @BeforeEach
    void startBackend() {
        // closed last: the backend, then the devices the case created, then what it opened (last first)
        backend = cleanup.track(backend());
        cleanup.defer(this::deleteCreatedDevices);
        try (GenlSocket s = GenlSocket.open(sys())) {
            familyId = s.resolveFamily("vdpa").id();
        }
    }

    @AfterEach
    void cleanUp() throws Exception {
        cleanup.closeAll();
    }

    /** Deletes the devices a case created (ENODEV: the case deleted it itself); the first other failure is thrown. */
    private void deleteCreatedDevices() {
        NetlinkException first = null;
        try (VdpaNetlink nl = VdpaNetlink.open(sys())) {
            for (String name : created) {
                try {
                    nl.deleteDevice(name, WAIT);
                } catch (NetlinkException e) {
                    if (e.errno() != Errno.ENODEV) {
                        first = first == null ? e : first;
                    }
                }
            }
        } finally {
            created.clear();
        }
        if (first != null) {
            throw first;
        }
    }

    // ================================================================== family resolution

    @Test
    void vdpaFamilyResolvesWithTheVerifiedAttributesInOrder() {
        GenlSocket s = socket();
        int seq = s.nextSeq();
        List<NetlinkMessage> answer = s.exchangeRaw(getFamily(seq, "vdpa"), seq, WAIT);
        assertEquals(2, answer.size(), "NEWFAMILY then the ACK");
        GenlMessage reply = assertInstanceOf(GenlMessage.class, answer.get(0));
        boolean attrSet = kernel().hasCommand(VdpaCommand.DEV_ATTR_SET.uapi());
        assertEquals(attrSet ? 208 : 188, reply.header().length(), "20 bytes per op");
        assertEquals(GENL_ID_CTRL, reply.header().type());
        assertEquals(s.portId(), reply.header().pid());
        assertEquals(CTRL_CMD_NEWFAMILY, reply.cmd());
        assertEquals(2, reply.genl().version());
        assertEquals(List.of(CTRL_ATTR_FAMILY_NAME.number(), CTRL_ATTR_FAMILY_ID.number(), CTRL_ATTR_VERSION.number(),
                CTRL_ATTR_HDRSIZE.number(), CTRL_ATTR_MAXATTR.number(), CTRL_ATTR_OPS.number()), types(reply));
        assertEquals(2, reply.attributes().require(CTRL_ATTR_FAMILY_ID).length(), "FAMILY_ID is a u16");
        GenlFamily f = GenlFamily.parse(reply.attributes());
        assertEquals("vdpa", f.name());
        assertEquals(familyId, f.id());
        assertTrue(f.id() >= GENL_MIN_ID);
        assertEquals(1, f.version());
        assertEquals(0, f.headerSize());
        assertEquals(kernel().netlink().maxAttr(), f.maxAttr());
        List<GenlFamily.Op> ops = new ArrayList<>(List.of(new GenlFamily.Op(2, 0xe), new GenlFamily.Op(3, 0xb),
                new GenlFamily.Op(4, 0xb), new GenlFamily.Op(5, 0xe), new GenlFamily.Op(6, 0xe), new GenlFamily.Op(7, 0xb)));
        if (attrSet) {
            ops.add(new GenlFamily.Op(8, 0xb));
        }
        assertEquals(ops, f.ops());
        assertTrue(f.groups().isEmpty());
        assertAck(answer.get(1), seq, s);
    }

    @Test
    void nlctrlDescribesItself() {
        GenlFamily f = socket().resolveFamily("nlctrl");
        assertEquals(GENL_ID_CTRL, f.id());
        assertEquals(2, f.version());
        assertEquals(0, f.maxAttr());
        assertEquals(List.of(new GenlFamily.Op(CTRL_CMD_GETFAMILY, 0xe), new GenlFamily.Op(10, 0xc)), f.ops());
        assertEquals(List.of(new GenlFamily.McastGroup("notify", GENL_ID_CTRL)), f.groups());
    }

    @Test
    void anUnknownFamilyIsEnoentWithoutExtack() {
        GenlSocket s = socket();
        int seq = s.nextSeq();
        ErrorMessage e = lastError(s.exchangeRaw(getFamily(seq, "vdpa-nope"), seq, WAIT));
        assertEquals(Errno.ENOENT, e.errno());
        assertNoExtack(e);
        NetlinkException ex = assertThrows(NetlinkException.class, () -> socket().resolveFamily("vdpa-nope"));
        assertEquals(Errno.ENOENT, ex.errno());
    }

    // ================================================================== MGMTDEV_GET

    @Test
    void mgmtdevDumpHasVdpasimNetAndBlkWithVerifiedValues() {
        List<GenlMessage> all = socket().dump(req("MGMTDEV_GET dump", VdpaCommand.MGMTDEV_GET, null));
        GenlMessage net = byName(all, MGMTDEV_DEV_NAME, "vdpasim_net");
        GenlMessage blk = byName(all, MGMTDEV_DEV_NAME, "vdpasim_blk");
        for (GenlMessage m : List.of(net, blk)) {
            assertEquals(68, m.header().length());
            assertEquals(NLM_F_MULTI, m.header().flags());
            assertEquals(VdpaCommand.MGMTDEV_NEW.number(), m.cmd());
            assertEquals(1, m.genl().version());
            assertEquals(List.of(MGMTDEV_DEV_NAME.number(), MGMTDEV_SUPPORTED_CLASSES.number(), DEV_MGMTDEV_MAX_VQS.number(),
                    DEV_SUPPORTED_FEATURES.number()), types(m));
        }
        assertTrue(all.indexOf(net) < all.indexOf(blk), "registration order: net before blk");
        List<MgmtDevInfo> infos = vdpa().mgmtDevices();
        assertTrue(infos.contains(new MgmtDevInfo(null, "vdpasim_net", 0x2, 3, netFeatures())), infos.toString());
        assertTrue(infos.contains(new MgmtDevInfo(null, "vdpasim_blk", 0x4, 0, 0L)), infos.toString());
    }

    @Test
    void mgmtdevGetByNameIsTheDumpEntryWithoutMulti() {
        GenlSocket s = socket();
        GenlMessage m = s.doit(req("MGMTDEV_GET vdpasim_net", VdpaCommand.MGMTDEV_GET,
                w -> w.putString(MGMTDEV_DEV_NAME.number(), "vdpasim_net"))).single();
        assertEquals(68, m.header().length());
        assertEquals(0, m.header().flags());
        assertEquals(familyId, m.header().type());
        assertEquals(s.portId(), m.header().pid());
        assertEquals(new MgmtDevInfo(null, "vdpasim_net", 0x2, 3, netFeatures()), vdpa().mgmtDevice("vdpasim_net"));
    }

    /** A kernel built with VDUSE registers its mgmtdev after the simulators (verified-netlink.md row 20). */
    @Test
    void vduseMgmtdevIsListedAfterTheSimulatorsWithItsClasses() {
        List<GenlMessage> all = socket().dump(req("MGMTDEV_GET dump", VdpaCommand.MGMTDEV_GET, null));
        GenlMessage vduse = byName(all, MGMTDEV_DEV_NAME, "vduse");
        assertEquals(64, vduse.header().length());
        assertEquals(NLM_F_MULTI, vduse.header().flags());
        assertEquals(List.of(MGMTDEV_DEV_NAME.number(), MGMTDEV_SUPPORTED_CLASSES.number(), DEV_MGMTDEV_MAX_VQS.number(),
                DEV_SUPPORTED_FEATURES.number()), types(vduse));
        assertEquals(10, vduse.attributes().require(MGMTDEV_DEV_NAME.number()).length() + 4, "nla_len of \"vduse\"");
        assertTrue(all.indexOf(byName(all, MGMTDEV_DEV_NAME, "vdpasim_blk")) < all.indexOf(vduse), "dump order: net, blk, vduse");
        // vduse_dev.c's id table, as the profile has it (KernelProfileTest pins each kernel's)
        long classes = kernel().vduseClassMask();
        MgmtDevInfo expected = new MgmtDevInfo(null, "vduse", classes, 0, 0L);
        assertTrue(vdpa().mgmtDevices().contains(expected), vdpa().mgmtDevices().toString());
        GenlMessage one = socket().doit(req("MGMTDEV_GET vduse", VdpaCommand.MGMTDEV_GET,
                w -> w.putString(MGMTDEV_DEV_NAME.number(), "vduse"))).single();
        assertEquals(64, one.header().length());
        assertEquals(0, one.header().flags());
        assertEquals(expected, vdpa().mgmtDevice("vduse"));
    }

    /** vduse accepts no provisioning attribute, and without a VDUSE device of that name its dev_add is EINVAL (row 27, 29). */
    @Test
    void devNewOnVduseWithoutAVduseDevice() {
        created.add("nlc21");
        assertFailsWithoutExtack(Errno.EINVAL, VdpaCommand.DEV_NEW, w -> {
            w.putString(MGMTDEV_DEV_NAME.number(), "vduse");
            w.putString(DEV_NAME.number(), "nlc21");
        });
        assertFails(Errno.EOPNOTSUPP, kernel().netlink().unsupportedAttributesText(0x400), VdpaCommand.DEV_NEW, w -> {
            w.putString(MGMTDEV_DEV_NAME.number(), "vduse");
            w.putString(DEV_NAME.number(), "nlc21");
            w.putAttribute(DEV_NET_CFG_MACADDR.number(), VDPA0_MAC.octets());
        });
        assertMaskError(DeviceSpec.of("nlc21", "vduse").withMac(VDPA0_MAC), 0x400);
        assertMaskError(DeviceSpec.of("nlc21", "vduse").withDeviceFeatures(NET_FEATURES), 0x100000);
        NetlinkException none = assertThrows(NetlinkException.class, () -> vdpa().device("nlc21"));
        assertEquals(Errno.ENODEV, none.errno(), "nothing was created");
    }

    @Test
    void mgmtdevLookupFailuresCarryTheMgmtDeviceText() {
        String text = "vdpa: Fail to find the specified mgmt device";
        assertFails(Errno.EINVAL, text, VdpaCommand.MGMTDEV_GET, null);
        assertFails(Errno.ENODEV, text, VdpaCommand.MGMTDEV_GET, w -> w.putString(MGMTDEV_DEV_NAME.number(), "nosuchmgmt"));
        assertFails(Errno.ENODEV, text, VdpaCommand.MGMTDEV_GET, w -> {
            w.putString(MGMTDEV_BUS_NAME.number(), "pci");
            w.putString(MGMTDEV_DEV_NAME.number(), "vdpasim_net");
        });
        ErrorMessage e = errorOf(VdpaCommand.MGMTDEV_GET, w -> w.putString(MGMTDEV_DEV_NAME.number(), "nosuchmgmt"));
        assertEquals(36 + 52, e.header().length(), "CAP_ACK error: 36 bytes + MSG (nla_len 49)");
        assertEquals(NLM_F_CAPPED | NLM_F_ACK_TLVS, e.header().flags());
    }

    // ================================================================== DEV_GET

    @Test
    void devGetOfVdpa0HasTheVerifiedShape() {
        GenlMessage m = socket().doit(req("DEV_GET vdpa0", VdpaCommand.DEV_GET, w -> w.putString(DEV_NAME.number(), "vdpa0"))).single();
        assertEquals(88, m.header().length());
        assertEquals(VdpaCommand.DEV_NEW.number(), m.cmd(), "DEV_GET replies with cmd 3");
        assertEquals(List.of(MGMTDEV_DEV_NAME.number(), DEV_NAME.number(), DEV_ID.number(), DEV_VENDOR_ID.number(),
                DEV_MAX_VQS.number(), DEV_MAX_VQ_SIZE.number(), DEV_MIN_VQ_SIZE.number()), types(m));
        assertEquals(2, m.attributes().require(DEV_MAX_VQ_SIZE.number()).length());
        assertEquals(2, m.attributes().require(DEV_MIN_VQ_SIZE.number()).length());
        assertEquals(new VdpaDevInfo("vdpa0", null, "vdpasim_net", 1, 0, 3, 256, 1), vdpa().device("vdpa0"));
        assertEquals(new VdpaDevInfo("vdpa1", null, "vdpasim_blk", 2, 0, 1, 256, 1), vdpa().device("vdpa1"));
    }

    @Test
    void devGetFailures() {
        assertFails(Errno.ENODEV, "vdpa: device not found", VdpaCommand.DEV_GET, w -> w.putString(DEV_NAME.number(), "nosuch"));
        assertFailsWithoutExtack(Errno.EINVAL, VdpaCommand.DEV_GET, null);
        NetlinkException e = assertThrows(NetlinkException.class, () -> vdpa().device("nosuch"));
        assertEquals(Errno.ENODEV, e.errno());
        assertEquals("vdpa: device not found", e.extackMessage());
    }

    // ================================================================== DEV_NEW / DEL round trips

    /**
     * The kernel takes any name and registers the device under its kobject name: dev_set_name's
     * kobject_set_name_vargs turns '/' into '!', and kernfs refuses neither "." nor ".." nor blanks or
     * newlines (measured on 6.12: `vdpa dev add name ..` succeeds, sysfs then lists a second "..").
     * The CLI refuses such names itself (docs/fake-kernel.md); this is what the kernel and the fake do.
     */
    @Test
    void deviceNamesAreRegisteredUnderTheirKobjectNames() {
        VdpaNetlink nl = vdpa();
        Map<String, String> listedAs = new LinkedHashMap<>();
        listedAs.put("nlc-a/b", "nlc-a!b");
        listedAs.put(".", ".");
        listedAs.put("..", "..");
        listedAs.put("nlc a b", "nlc a b");
        listedAs.put("nlc\nnl", "nlc\nnl");
        for (Map.Entry<String, String> e : listedAs.entrySet()) {
            created.add(e.getValue());
            nl.addDevice(DeviceSpec.of(e.getKey(), "vdpasim_net"));
        }
        Set<String> names = new HashSet<>();
        nl.devices().forEach(d -> names.add(d.name()));
        assertTrue(names.containsAll(listedAs.values()), names.toString());
        assertFalse(names.contains("nlc-a/b"), names.toString());
        assertEquals("nlc-a!b", nl.device("nlc-a!b").name());
        assertEquals(Errno.ENODEV, assertThrows(NetlinkException.class, () -> nl.device("nlc-a/b")).errno());
        for (String listed : listedAs.values()) {
            nl.deleteDevice(listed, WAIT);
        }
        Set<String> after = new HashSet<>();
        nl.devices().forEach(d -> after.add(d.name()));
        assertTrue(after.stream().noneMatch(listedAs::containsValue), after.toString());
    }

    @Test
    void addShowConfigDeleteRoundTrip() {
        VdpaNetlink nl = vdpa();
        nl.addDevice(track(DeviceSpec.of("nlc01", "vdpasim_net").withMac(MacAddress.parse("02:11:22:33:44:55")).withMtu(9000)));
        assertEquals(new VdpaDevInfo("nlc01", null, "vdpasim_net", 1, 0, 3, 256, 1), nl.device("nlc01"));
        assertTrue(nl.devices().stream().anyMatch(d -> d.name().equals("nlc01")));
        DevConfig c = nl.config("nlc01");
        assertEquals("02:11:22:33:44:55", c.net().mac());
        assertEquals(9000, c.net().mtu());
        assertEquals(1, c.net().status());
        assertNull(c.net().maxVirtqueuePairs());
        assertNull(c.negotiatedFeatures());
        assertEquals(netFeatures(), c.deviceFeatures());
        nl.deleteDevice("nlc01");
        NetlinkException gone = assertThrows(NetlinkException.class, () -> nl.device("nlc01"));
        assertEquals(Errno.ENODEV, gone.errno());
        NetlinkException again = assertThrows(NetlinkException.class, () -> nl.deleteDevice("nlc01"));
        assertEquals(Errno.ENODEV, again.errno());
        assertEquals("vdpa: device not found", again.extackMessage());
    }

    @Test
    void devNewAcksWith36CappedBytes() {
        GenlSocket s = socket();
        int seq = s.nextSeq();
        created.add("nlc02");
        List<NetlinkMessage> answer = s.exchangeRaw(request(VdpaCommand.DEV_NEW, NLM_F_REQUEST | NLM_F_ACK, seq, w -> {
            w.putString(MGMTDEV_DEV_NAME.number(), "vdpasim_net");
            w.putString(DEV_NAME.number(), "nlc02");
        }), seq, WAIT);
        assertEquals(1, answer.size(), "DEV_NEW answers with the ACK only");
        assertAck(answer.getFirst(), seq, s);
    }

    @Test
    void devNewWithFeaturesLimitsTheConfigToThoseBits() {
        VdpaNetlink nl = vdpa();
        nl.addDevice(track(DeviceSpec.of("nlc03", "vdpasim_net").withDeviceFeatures(0x300000020L)));
        GenlMessage m = socket().doit(req("config", VdpaCommand.DEV_CONFIG_GET, w -> w.putString(DEV_NAME.number(), "nlc03"))).single();
        assertEquals(netConfigTypes(false, DEV_NET_CFG_MACADDR.number()), types(m));
        DevConfig c = nl.config("nlc03");
        assertEquals(0x300000020L, c.deviceFeatures());
        assertEquals(MacAddress.of(new byte[6]).toString(), c.net().mac(), "vdpa_sim's MAC is zero unless provisioned");
        assertNull(c.net().mtu());
    }

    @Test
    void devNewChecksRunInTheKernelsOrder() {
        assertFailsWithoutExtack(Errno.EINVAL, VdpaCommand.DEV_NEW, w -> w.putString(MGMTDEV_DEV_NAME.number(), "vdpasim_net"));
        // max_vqp 0 is refused before the mgmtdev lookup
        assertFails(Errno.EINVAL, "vdpa: At least one pair of VQs is required", VdpaCommand.DEV_NEW, w -> {
            w.putString(MGMTDEV_DEV_NAME.number(), "nosuchmgmt");
            w.putString(DEV_NAME.number(), "nlc04");
            w.putU16(DEV_NET_CFG_MAX_VQP.number(), 0);
        });
        // so are features that lack the bits of the provided attributes, where the kernel checks them (6.12+);
        // 6.1 goes straight on to the mgmtdev lookup
        String mgmtText = "vdpa: Fail to find the specified management device";
        boolean bitsFirst = kernel().netlink().devNewChecksFeatureBits();
        assertFails(bitsFirst ? Errno.EINVAL : Errno.ENODEV,
                bitsFirst ? "vdpa: Missing features 0x28 for provided attributes" : mgmtText, VdpaCommand.DEV_NEW, w -> {
            w.putString(MGMTDEV_DEV_NAME.number(), "nosuchmgmt");
            w.putString(DEV_NAME.number(), "nlc04");
            w.putAttribute(DEV_NET_CFG_MACADDR.number(), VDPA0_MAC.octets());
            w.putU16(DEV_NET_CFG_MTU.number(), 1500);
            w.putU64(DEV_FEATURES.number(), 0x100000000L);
        });
        assertFails(Errno.ENODEV, mgmtText, VdpaCommand.DEV_NEW, w -> {
            w.putString(MGMTDEV_DEV_NAME.number(), "nosuchmgmt");
            w.putString(DEV_NAME.number(), "nlc04");
        });
        assertFails(Errno.EINVAL, mgmtText, VdpaCommand.DEV_NEW, w -> w.putString(DEV_NAME.number(), "nlc04"));
        NetlinkException none = assertThrows(NetlinkException.class, () -> vdpa().device("nlc04"));
        assertEquals(Errno.ENODEV, none.errno(), "nothing was created");
    }

    @Test
    void unsupportedProvisioningAttributesAreNamedByMask() {
        created.add("nlc05");
        NetlinkException e = assertThrows(NetlinkException.class,
                () -> vdpa().addDevice(DeviceSpec.of("nlc05", "vdpasim_net").withMaxVqPairs(2)));
        assertEquals(Errno.EOPNOTSUPP, e.errno());
        assertEquals(kernel().netlink().unsupportedAttributesText(0x1000), e.extackMessage());
        assertTrue(e.getMessage().contains("max_vqp"), e.getMessage());
        assertMaskError(DeviceSpec.of("nlc05", "vdpasim_net").withMaxVqPairs(1), 0x1000);
        assertMaskError(DeviceSpec.of("nlc05", "vdpasim_blk").withMac(VDPA0_MAC), 0x400);
        assertMaskError(DeviceSpec.of("nlc05", "vdpasim_blk").withMaxVqPairs(1), 0x1000);
        assertMaskError(DeviceSpec.of("nlc05", "vdpasim_blk").withDeviceFeatures(BLK_DEVICE_FEATURES), 0x100000);
    }

    @Test
    void duplicatesAndDriverRefusalsCarryNoExtack() {
        VdpaNetlink nl = vdpa();
        nl.addDevice(track(DeviceSpec.of("nlc06", "vdpasim_net")));
        NetlinkException dup = assertThrows(NetlinkException.class, () -> nl.addDevice(DeviceSpec.of("nlc06", "vdpasim_net")));
        assertEquals(Errno.EEXIST, dup.errno());
        assertNull(dup.extackMessage());
        // vdpa_sim checks features before the name: a duplicate with bad features is EINVAL
        NetlinkException bad = assertThrows(NetlinkException.class,
                () -> nl.addDevice(DeviceSpec.of("nlc06", "vdpasim_net").withDeviceFeatures(1L << 40)));
        assertEquals(Errno.EINVAL, bad.errno());
        assertNull(bad.extackMessage());
        created.add("nlc07");
        NetlinkException badNew = assertThrows(NetlinkException.class,
                () -> nl.addDevice(DeviceSpec.of("nlc07", "vdpasim_net").withDeviceFeatures(1L << 40)));
        assertEquals(Errno.EINVAL, badNew.errno());
        assertEquals(Errno.EINVAL, errorOf(VdpaCommand.DEV_NEW, w -> {
            w.putString(MGMTDEV_DEV_NAME.number(), "vdpasim_net");
            w.putAttribute(DEV_NAME.number(), new byte[] {0});
        }).errno(), "an empty device name");
    }

    @Test
    void devDelFailures() {
        assertFailsWithoutExtack(Errno.EINVAL, VdpaCommand.DEV_DEL, null);
        assertFails(Errno.ENODEV, "vdpa: device not found", VdpaCommand.DEV_DEL, w -> w.putString(DEV_NAME.number(), "nosuch"));
    }

    @Test
    void devDelOfAnOpenDeviceWaitsForTheClose() throws Exception {
        VdpaNetlink nl = vdpa();
        nl.addDevice(track(DeviceSpec.of("nlc08", "vdpasim_net")));
        String node = waitForNode("nlc08");
        int fd = sys().open(node, libc_h.O_RDWR());
        BooleanSupplier parked = backend.deleterParked(node);
        AtomicBoolean closed = new AtomicBoolean();
        CompletableFuture<Boolean> del = CompletableFuture.supplyAsync(() -> {
            try (VdpaNetlink other = VdpaNetlink.open(sys())) {
                other.deleteDevice("nlc08", Duration.ofSeconds(60));
            }
            return closed.get();
        });
        try {
            // vhost_vdpa_remove deletes the node (cdev_device_del) and then waits for the close: once the node
            // is gone the delete is inside that wait, so the close below always comes while it waits
            awaitNodeRemovedWhileOpen(node, del);
            awaitDeleterParked(parked, del);
        } finally {
            closed.set(true);
            sys().close(fd);
        }
        assertTrue(del.get(), "DEV_DEL returned before the device node was closed");
        assertEquals(Errno.ENODEV, assertThrows(NetlinkException.class, () -> nl.device("nlc08")).errno());
    }

    /**
     * Polls until the delete is parked in the wait for the close; fails if it returns first. A delete
     * that does not wait never parks, so it fails every time, however the threads are scheduled.
     */
    private static void awaitDeleterParked(BooleanSupplier parked, CompletableFuture<?> del)
            throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!parked.getAsBoolean()) {
            assertFalse(del.isDone(), () -> "DEV_DEL returned without waiting for the close: " + del);
            if (System.nanoTime() > deadline) {
                throw new AssertionError("DEV_DEL neither returned nor waited for the close within " + WAIT);
            }
            Thread.sleep(1);
        }
    }

    /** Polls until {@code node} is gone; fails if the delete returns first or the node never goes. */
    private void awaitNodeRemovedWhileOpen(String node, CompletableFuture<?> del) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (true) {
            assertFalse(del.isDone(), () -> "DEV_DEL returned while " + node + " was open: " + del);
            try {
                // open, not stat: it never waits for the vdpa lock DEV_DEL holds (nor does the kernel's)
                int second = sys().open(node, libc_h.O_RDWR());
                sys().close(second);
                throw new AssertionError("a second open of " + node + " succeeded");
            } catch (SyscallException e) {
                if (e.errno() == Errno.ENOENT) {
                    return;
                }
                assertEquals(Errno.EBUSY, e.errno(), "a second open while the node exists");
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("DEV_DEL did not remove " + node + " within " + WAIT);
            }
            Thread.sleep(5);
        }
    }

    // ================================================================== nlctrl policy dump (kernel-abi.md §7.6)

    @Test
    void policyDumpGivesEveryCommandTheFamilysOnePolicy() {
        GenlPolicy p = GenlPolicy.dump(socket(), "vdpa");
        assertEquals(Set.of(0), p.policies().keySet(), "vdpa_nl_policy is the family's only policy");
        List<GenlFamily.Op> ops = vdpa().family().ops();
        assertEquals(ops.stream().map(GenlFamily.Op::cmd).collect(Collectors.toSet()), p.ops().keySet());
        for (GenlFamily.Op op : ops) {
            GenlPolicy.OpPolicy o = p.ops().get(op.cmd());
            assertEquals(Optional.of(0), o.doPolicy(), "cmd " + op.cmd());
            assertEquals(op.canDump() ? Optional.of(0) : Optional.empty(), o.dumpPolicy(), "cmd " + op.cmd());
        }
        Set<Integer> expected = new TreeSet<>();
        kernel().netlink().requestPolicy().forEach(e -> expected.add(e.number()));
        assertEquals(expected, p.requestAttributes(VdpaCommand.DEV_NEW.number()));
        Map<Integer, GenlPolicy.AttrRule> rules = p.policies().get(0);
        assertEquals(new GenlPolicy.AttrRule(NL_ATTR_TYPE_U16, 68L, 0xFFFFL, null, null), rules.get(DEV_NET_CFG_MTU.number()));
        assertEquals(new GenlPolicy.AttrRule(NL_ATTR_TYPE_U16, 0L, 0xFFFFL, null, null), rules.get(DEV_NET_CFG_MAX_VQP.number()));
        assertEquals(new GenlPolicy.AttrRule(NL_ATTR_TYPE_BINARY, null, null, 6, 6), rules.get(DEV_NET_CFG_MACADDR.number()));
        assertEquals(new GenlPolicy.AttrRule(NL_ATTR_TYPE_NUL_STRING, null, null, null, null), rules.get(MGMTDEV_BUS_NAME.number()));
        assertEquals(new GenlPolicy.AttrRule(NL_ATTR_TYPE_STRING, null, null, null, null), rules.get(DEV_NAME.number()));
        assertEquals(new GenlPolicy.AttrRule(NL_ATTR_TYPE_U32, 0L, 0xFFFF_FFFFL, null, null), rules.get(DEV_QUEUE_INDEX.number()));
        assertEquals(new GenlPolicy.AttrRule(NL_ATTR_TYPE_U64, 0L, -1L, null, null), rules.get(DEV_FEATURES.number()));
    }

    @Test
    void policyDumpMessagesHaveTheKernelsBytes() {
        GenlSocket s = socket();
        int seq = s.nextSeq();
        MessageWriter w = new MessageWriter();
        w.beginMessage(GENL_ID_CTRL, NLM_F_REQUEST | NLM_F_DUMP, seq, 0).genlHeader(CTRL_CMD_GETPOLICY, 1)
                .putString(CTRL_ATTR_FAMILY_NAME, "vdpa");
        w.endMessage();
        s.sendRaw(w.toByteArray());
        List<byte[]> messages = new ArrayList<>();
        for (byte[] d : receiveUntilDone(s, 32 * 1024)) {
            ByteBuffer b = ByteBuffer.wrap(d).order(ByteOrder.LITTLE_ENDIAN);
            for (int off = 0; off < d.length; off += nlmsgAlign(b.getInt(off))) {
                if (b.getShort(off + 4) == GENL_ID_CTRL) {
                    messages.add(Arrays.copyOfRange(d, off, off + b.getInt(off)));
                }
            }
        }
        int ops = vdpa().family().ops().size();
        assertEquals(ops + kernel().netlink().requestPolicy().size(), messages.size(), "one message per op, one per attribute");
        int pid = s.portId();
        // ctrl_dumppolicy_put_op for MGMTDEV_GET (do and dump, policy 0)
        assertArrayEquals(le(0x34, 0x10, 0x02, seq, pid, 0x0a, 1, 2, 1, 0, 2, 0x0006, 2, 0x0001, 2, familyId, 2, 0, 2,
                0x0018, 2, 0x8009, 2, 0x0014, 2, 0x8002, 2, 0x0008, 2, 0x0001, 2, 0, 4, 0x0008, 2, 0x0002, 2, 0, 4),
                messages.get(0));
        // netlink_policy_dump_write for DEV_NET_CFG_MTU (NLA_POLICY_MIN(NLA_U16, 68)), the sixth attribute
        assertArrayEquals(le(0x48, 0x10, 0x02, seq, pid, 0x0a, 1, 2, 1, 0, 2, 0x0006, 2, 0x0001, 2, familyId, 2, 0, 2,
                0x002c, 2, 0x8008, 2, 0x0028, 2, 0x8000, 2, 0x0024, 2, 0x800d, 2,
                0x000c, 2, 0x0004, 2, 68, 8, 0x000c, 2, 0x0005, 2, 0xffff, 8, 0x0008, 2, 0x0001, 2, 3, 4),
                messages.get(ops + 5));
    }

    /**
     * Little-endian bytes of a netlink message: the 16-byte header (len u32, type u16, flags u16,
     * seq u32, pid u32), then the rest as value/width pairs (widths 1, 2, 4, 8).
     */
    static byte[] le(int len, int type, int flags, int seq, int pid, long... rest) {
        ByteBuffer b = ByteBuffer.allocate(len).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(len).putShort((short) type).putShort((short) flags).putInt(seq).putInt(pid);
        for (int i = 0; i < rest.length; i += 2) {
            switch ((int) rest[i + 1]) {
                case 1 -> b.put((byte) rest[i]);
                case 2 -> b.putShort((short) rest[i]);
                case 4 -> b.putInt((int) rest[i]);
                default -> b.putLong(rest[i]);
            }
        }
        assertEquals(len, b.position(), "expected message length");
        return b.array();
    }

    @Test
    void anAttributeOfANewerKernelIsRefusedAsThisKernelRefusesIt() {
        // VDPA_ATTR_DEV_BLK_READ_ONLY (35): above 6.1's maxattr (22), reply-only on 6.12 and 7.2
        int type = DEV_BLK_READ_ONLY.number();
        ErrorMessage e = errorOf(VdpaCommand.DEV_NEW, w -> {
            w.putString(MGMTDEV_DEV_NAME.number(), "vdpasim_net");
            w.putString(DEV_NAME.number(), "t1");
            w.putU8(type, 1);
        });
        assertEquals(Errno.EINVAL, e.errno());
        assertEquals(type > kernel().netlink().maxAttr() ? "Unknown attribute type" : "Unsupported attribute", e.extack().message());
        assertEquals(44, e.extack().offset(), "the third attribute");
        assertFalse(vdpa().attributeSupport().accepts(VdpaCommand.DEV_NEW, DEV_BLK_READ_ONLY), "the probe foresaw the refusal");
        assertEquals(VdpaAttributeSupport.Source.POLICY_DUMP, vdpa().attributeSupport().source());
    }

    // ================================================================== policy validation

    @Test
    void replyOnlyAttributesAreUnsupported() {
        ErrorMessage e = errorOf(VdpaCommand.DEV_GET, w -> {
            w.putString(DEV_NAME.number(), "vdpa0");
            w.putU32(DEV_ID.number(), 1);
        });
        assertEquals(Errno.EINVAL, e.errno());
        assertEquals("Unsupported attribute", e.extack().message());
        assertEquals(NLMSG_HDRLEN + GENL_HDRLEN + 12, e.extack().offset());
        assertNull(e.extack().policy());
    }

    @Test
    void attributeTypesZeroAndAboveMaxAreUnknown() {
        for (int type : new int[] {0, 38}) {
            ErrorMessage e = errorOf(VdpaCommand.DEV_NEW, w -> {
                w.putString(MGMTDEV_DEV_NAME.number(), "vdpasim_net");
                w.putString(DEV_NAME.number(), "t1");
                w.putAttribute(type, new byte[4]);
            });
            assertEquals(Errno.EINVAL, e.errno());
            assertEquals("Unknown attribute type", e.extack().message());
            assertEquals(44, e.extack().offset(), "the verified offset of the third attribute");
            assertNull(e.extack().policy());
        }
    }

    @Test
    void wrongIntegerLengthsFailWithThePolicy() {
        ErrorMessage e = errorOf(VdpaCommand.DEV_NEW, w -> {
            w.putString(DEV_NAME.number(), "t1");
            w.putU32(DEV_NET_CFG_MAX_VQP.number(), 2);
        });
        assertEquals(Errno.EINVAL, e.errno());
        assertEquals("invalid attribute length", e.extack().message());
        assertEquals(NLMSG_HDRLEN + GENL_HDRLEN + 8, e.extack().offset());
        assertPolicy(e, 36, new long[][] {{NL_POLICY_TYPE_ATTR_MIN_VALUE_U, 0}, {NL_POLICY_TYPE_ATTR_MAX_VALUE_U, 0xffff},
                {NL_POLICY_TYPE_ATTR_TYPE, NL_ATTR_TYPE_U16}});
        ErrorMessage f = errorOf(VdpaCommand.DEV_NEW, w -> {
            w.putString(DEV_NAME.number(), "t1");
            w.putU32(DEV_FEATURES.number(), 2);
        });
        assertEquals("invalid attribute length", f.extack().message());
        assertPolicy(f, 36, new long[][] {{NL_POLICY_TYPE_ATTR_MIN_VALUE_U, 0}, {NL_POLICY_TYPE_ATTR_MAX_VALUE_U, -1},
                {NL_POLICY_TYPE_ATTR_TYPE, NL_ATTR_TYPE_U64}});
    }

    /**
     * An integer shorter than its policy type. vdpa_nl_ops set no {@code .validate} flags (drivers/vdpa/vdpa.c, 6.1,
     * 6.12 and 7.2 alike): the family validates with NL_VALIDATE_STRICT, whose NL_VALIDATE_STRICT_ATTRS makes
     * validate_nla (lib/nlattr.c) refuse any length but nla_attr_len[NLA_U16] = 2 with EINVAL before the minimum
     * length check would answer ERANGE.
     */
    @Test
    void aTooShortIntegerIsRefusedByVdpasStrictPolicy() {
        ErrorMessage e = errorOf(VdpaCommand.DEV_NEW, w -> {
            w.putString(DEV_NAME.number(), "t1");
            w.putU8(DEV_NET_CFG_MTU.number(), 1);
        });
        assertEquals(Errno.EINVAL, e.errno());
        assertEquals("invalid attribute length", e.extack().message());
        assertEquals(NLMSG_HDRLEN + GENL_HDRLEN + 8, e.extack().offset(), "the offset of the MTU attribute");
        assertPolicy(e, 36, new long[][] {{NL_POLICY_TYPE_ATTR_MIN_VALUE_U, 68}, {NL_POLICY_TYPE_ATTR_MAX_VALUE_U, 0xffff},
                {NL_POLICY_TYPE_ATTR_TYPE, NL_ATTR_TYPE_U16}});
    }

    /**
     * The same too-short integer to nlctrl's GETFAMILY, which keeps liberal validation (genl_ctrl_ops: {@code
     * GENL_DONT_VALIDATE_STRICT}): the wrong length alone only warns, and the minimum length check
     * (nla_attr_minlen) fails it with ERANGE and "Attribute failed policy validation".
     */
    @Test
    void aTooShortIntegerToLiberalNlctrlFailsTheMinimumLength() {
        GenlSocket s = socket();
        int seq = s.nextSeq();
        MessageWriter w = new MessageWriter();
        w.beginMessage(GENL_ID_CTRL, NLM_F_REQUEST | NLM_F_ACK, seq, 0).genlHeader(CTRL_CMD_GETFAMILY, 1)
                .putU8(CTRL_ATTR_FAMILY_ID.number(), 19);
        w.endMessage();
        ErrorMessage e = lastError(s.exchangeRaw(w.toByteArray(), seq, WAIT));
        assertEquals(Errno.ERANGE, e.errno());
        assertEquals("Attribute failed policy validation", e.extack().message());
        assertEquals(NLMSG_HDRLEN + GENL_HDRLEN, e.extack().offset());
        assertPolicy(e, 36, new long[][] {{NL_POLICY_TYPE_ATTR_MIN_VALUE_U, 0}, {NL_POLICY_TYPE_ATTR_MAX_VALUE_U, 0xffff},
                {NL_POLICY_TYPE_ATTR_TYPE, NL_ATTR_TYPE_U16}});
    }

    @Test
    void mtuBelow68IsOutOfRange() {
        ErrorMessage e = errorOf(VdpaCommand.DEV_NEW, w -> {
            w.putString(DEV_NAME.number(), "t1");
            w.putU16(DEV_NET_CFG_MTU.number(), 67);
        });
        assertEquals(Errno.ERANGE, e.errno());
        assertEquals("integer out of range", e.extack().message());
        assertPolicy(e, 36, new long[][] {{NL_POLICY_TYPE_ATTR_MIN_VALUE_U, 68}, {NL_POLICY_TYPE_ATTR_MAX_VALUE_U, 0xffff},
                {NL_POLICY_TYPE_ATTR_TYPE, NL_ATTR_TYPE_U16}});
        assertEquals(36 + 28 + 8 + 36, e.header().length(), "MSG nla_len 25, OFFS 8, POLICY 36");
    }

    @Test
    void aMacOfFiveBytesIsOutOfRange() {
        ErrorMessage e = errorOf(VdpaCommand.DEV_NEW, w -> {
            w.putString(DEV_NAME.number(), "t1");
            w.putAttribute(DEV_NET_CFG_MACADDR.number(), new byte[5]);
        });
        assertEquals(Errno.ERANGE, e.errno());
        assertEquals("binary attribute size out of range", e.extack().message());
        assertPolicy(e, 28, new long[][] {{NL_POLICY_TYPE_ATTR_MIN_LENGTH, 6}, {NL_POLICY_TYPE_ATTR_MAX_LENGTH, 6},
                {NL_POLICY_TYPE_ATTR_TYPE, NL_ATTR_TYPE_BINARY}});
    }

    @Test
    void stringPolicies() {
        ErrorMessage empty = errorOf(VdpaCommand.DEV_GET, w -> w.putAttribute(DEV_NAME.number(), new byte[0]));
        assertEquals(Errno.ERANGE, empty.errno());
        assertEquals("Attribute failed policy validation", empty.extack().message());
        assertPolicy(empty, 12, new long[][] {{NL_POLICY_TYPE_ATTR_TYPE, NL_ATTR_TYPE_STRING}});
        ErrorMessage noNul = errorOf(VdpaCommand.MGMTDEV_GET, w -> {
            w.putAttribute(MGMTDEV_BUS_NAME.number(), "pci".getBytes(StandardCharsets.US_ASCII));
            w.putString(MGMTDEV_DEV_NAME.number(), "vdpasim_net");
        });
        assertEquals(Errno.EINVAL, noNul.errno());
        assertEquals("Attribute failed policy validation", noNul.extack().message());
        assertPolicy(noNul, 12, new long[][] {{NL_POLICY_TYPE_ATTR_TYPE, NL_ATTR_TYPE_NUL_STRING}});
        // NLA_STRING need not carry a NUL: the mgmtdev is still found
        GenlMessage ok = socket().doit(req("MGMTDEV_GET", VdpaCommand.MGMTDEV_GET,
                w -> w.putAttribute(MGMTDEV_DEV_NAME.number(), "vdpasim_net".getBytes(StandardCharsets.US_ASCII)))).single();
        assertEquals("vdpasim_net", ok.attributes().string(MGMTDEV_DEV_NAME.number()));
    }

    @Test
    void aFlatAttributeMarkedNestedIsRefused() {
        ErrorMessage e = errorOf(VdpaCommand.DEV_GET, w -> w.putAttribute(NLA_F_NESTED | DEV_NAME.number(),
                "vdpa0\0".getBytes(StandardCharsets.US_ASCII)));
        assertEquals(Errno.EINVAL, e.errno());
        assertEquals("NLA_F_NESTED not expected", e.extack().message());
        assertEquals(NLMSG_HDRLEN + GENL_HDRLEN, e.extack().offset());
        assertPolicy(e, 12, new long[][] {{NL_POLICY_TYPE_ATTR_TYPE, NL_ATTR_TYPE_STRING}});
        // the byte-order flag is ignored
        GenlMessage ok = socket().doit(req("DEV_GET", VdpaCommand.DEV_GET, w -> w.putAttribute(NLA_F_NET_BYTEORDER | DEV_NAME.number(),
                "vdpa0\0".getBytes(StandardCharsets.US_ASCII)))).single();
        assertEquals("vdpa0", ok.attributes().string(DEV_NAME.number()));
    }

    @Test
    void strayBytesAfterTheAttributesAreLeftovers() {
        GenlSocket s = socket();
        int seq = s.nextSeq();
        MessageWriter w = new MessageWriter();
        w.beginMessage(familyId, NLM_F_REQUEST | NLM_F_ACK, seq, 0).genlHeader(VdpaCommand.DEV_GET.number(), 1)
                .putString(DEV_NAME.number(), "vdpa0").putRaw(new byte[] {1, 2, 3});
        w.endMessage();
        ErrorMessage e = lastError(s.exchangeRaw(w.toByteArray(), seq, WAIT));
        assertEquals(Errno.EINVAL, e.errno());
        assertEquals("bytes leftover after parsing attributes", e.extack().message());
        assertNull(e.extack().offset());
        assertEquals(36 + 44, e.header().length(), "MSG nla_len 44");
    }

    @Test
    void dumpsAreValidatedToo() {
        GenlSocket s = socket();
        int seq = s.nextSeq();
        ErrorMessage e = lastError(s.exchangeRaw(request(VdpaCommand.DEV_GET, NLM_F_REQUEST | NLM_F_DUMP, seq,
                w -> w.putU32(DEV_MAX_VQS.number(), 1)), seq, WAIT));
        assertEquals(Errno.EINVAL, e.errno());
        assertEquals("Unsupported attribute", e.extack().message());
    }

    // ================================================================== genetlink header checks and ordering

    @Test
    void cmd8ChecksTheGenlHeaderAndFlags() {
        GenlSocket s = socket();
        int seq = s.nextSeq();
        MessageWriter w = new MessageWriter();
        w.beginMessage(familyId, NLM_F_REQUEST | NLM_F_ACK, seq, 0).genlHeader(new GenlHeader(8, 1, 1))
                .putString(DEV_NAME.number(), "vdpa0");
        w.endMessage();
        ErrorMessage reserved = lastError(s.exchangeRaw(w.toByteArray(), seq, WAIT));
        assertEquals(Errno.EINVAL, reserved.errno());
        assertEquals("genlmsghdr.reserved field is not 0", reserved.extack().message());
        int seq2 = s.nextSeq();
        ErrorMessage flags = lastError(s.exchangeRaw(request(VdpaCommand.DEV_ATTR_SET, NLM_F_REQUEST | NLM_F_ACK | 0x10, seq2,
                x -> x.putString(DEV_NAME.number(), "vdpa0")), seq2, WAIT));
        assertEquals(Errno.EINVAL, flags.errno());
        assertEquals("ambiguous or reserved bits set in nlmsg_flags", flags.extack().message());
        // older commands skip these checks, and the genl version is never checked
        int seq3 = s.nextSeq();
        MessageWriter old = new MessageWriter();
        old.beginMessage(familyId, NLM_F_REQUEST | NLM_F_ACK | 0x10, seq3, 0).genlHeader(new GenlHeader(5, 0, 1))
                .putString(DEV_NAME.number(), "vdpa0");
        old.endMessage();
        List<NetlinkMessage> ok = s.exchangeRaw(old.toByteArray(), seq3, WAIT);
        assertInstanceOf(GenlMessage.class, ok.getFirst());
        assertAck(ok.getLast(), seq3, s);
    }

    @Test
    void aMessageShorterThanTheGenlHeaderIsEinval() {
        GenlSocket s = socket();
        int seq = s.nextSeq();
        byte[] m = new byte[NLMSG_HDRLEN];
        new NetlinkHeader(NLMSG_HDRLEN, familyId, NLM_F_REQUEST | NLM_F_ACK, seq, 0).write(MemorySegment.ofArray(m), 0);
        ErrorMessage e = lastError(s.exchangeRaw(m, seq, WAIT));
        assertEquals(Errno.EINVAL, e.errno());
        assertNoExtack(e);
    }

    @Test
    void unknownCommandsAndMissingHandlersAreEopnotsupp() {
        GenlSocket s = socket();
        for (int cmd : new int[] {0, 1, 9}) {
            int seq = s.nextSeq();
            MessageWriter w = new MessageWriter();
            w.beginMessage(familyId, NLM_F_REQUEST | NLM_F_ACK, seq, 0).genlHeader(cmd, 1);
            w.endMessage();
            ErrorMessage e = lastError(s.exchangeRaw(w.toByteArray(), seq, WAIT));
            assertEquals(Errno.EOPNOTSUPP, e.errno(), "cmd " + cmd);
            assertNoExtack(e);
        }
        int seq = s.nextSeq();
        ErrorMessage dumpNew = lastError(s.exchangeRaw(request(VdpaCommand.DEV_NEW, NLM_F_REQUEST | NLM_F_DUMP, seq, null), seq, WAIT));
        assertEquals(Errno.EOPNOTSUPP, dumpNew.errno());
        assertNoExtack(dumpNew);
    }

    @Test
    void errorMessagesFollowTheSocketsAckOptions() {
        Consumer<MessageWriter> bad = w -> {
            w.putString(DEV_NAME.number(), "t1");
            w.putU16(DEV_NET_CFG_MTU.number(), 67);
        };
        byte[] probe = request(VdpaCommand.DEV_NEW, NLM_F_REQUEST | NLM_F_ACK, 1, bad);
        int tlvs = 28 + 8 + 36;
        ErrorMessage full = rawError(GenlSocket.Options.DEFAULT.withCapAck(false), VdpaCommand.DEV_NEW, bad);
        assertEquals(NLM_F_ACK_TLVS, full.header().flags());
        assertEquals(20 + probe.length + tlvs, full.header().length());
        assertArrayEquals(Arrays.copyOfRange(probe, NLMSG_HDRLEN, probe.length), full.requestPayload());
        ErrorMessage capped = rawError(GenlSocket.Options.DEFAULT, VdpaCommand.DEV_NEW, bad);
        assertEquals(NLM_F_CAPPED | NLM_F_ACK_TLVS, capped.header().flags());
        assertEquals(36 + tlvs, capped.header().length());
        ErrorMessage bare = rawError(GenlSocket.Options.DEFAULT.withCapAck(false).withExtAck(false), VdpaCommand.DEV_NEW, bad);
        assertEquals(0, bare.header().flags());
        assertEquals(20 + probe.length, bare.header().length());
        assertNoExtack(bare);
        // an ACK is 36 capped bytes whatever the options
        GenlSocket plain = socket(GenlSocket.Options.DEFAULT.withCapAck(false).withExtAck(false));
        int seq = plain.nextSeq();
        List<NetlinkMessage> answer = plain.exchangeRaw(request(VdpaCommand.DEV_GET, NLM_F_REQUEST | NLM_F_ACK, seq,
                w -> w.putString(DEV_NAME.number(), "vdpa0")), seq, WAIT);
        assertAck(answer.getLast(), seq, plain);
    }

    @Test
    void withoutAckFlagASuccessSendsOnlyTheReply() {
        GenlSocket s = socket();
        int seq = s.nextSeq();
        s.sendRaw(request(VdpaCommand.DEV_GET, NLM_F_REQUEST, seq, w -> w.putString(DEV_NAME.number(), "vdpa0")));
        List<NetlinkMessage> d = NetlinkDecoder.decode(s.receiveRaw(WAIT));
        assertEquals(1, d.size());
        GenlMessage g = assertInstanceOf(GenlMessage.class, d.getFirst());
        assertEquals(seq, g.header().seq());
        // an error is still reported without NLM_F_ACK
        int seq2 = s.nextSeq();
        s.sendRaw(request(VdpaCommand.DEV_GET, NLM_F_REQUEST, seq2, w -> w.putString(DEV_NAME.number(), "nosuch")));
        ErrorMessage e = assertInstanceOf(ErrorMessage.class, NetlinkDecoder.decode(s.receiveRaw(WAIT)).getFirst());
        assertEquals(Errno.ENODEV, e.errno());
    }

    // ================================================================== privileges

    @Test
    void withoutCapNetAdminTheGetsWorkAndTheAdminCommandsAreEperm() {
        try (VdpaNetlink nl = VdpaNetlink.open(backend.unprivileged())) {
            assertTrue(nl.devices().stream().anyMatch(d -> d.name().equals("vdpa0")));
            assertEquals(VDPA0_MAC.toString(), nl.config("vdpa0").net().mac());
            assertTrue(nl.mgmtDevices().stream().anyMatch(m -> m.devName().equals("vdpasim_net")));
            created.add("nlc09");
            NetlinkException e = assertThrows(NetlinkException.class, () -> nl.addDevice(DeviceSpec.of("nlc09", "vdpasim_net")));
            assertEquals(Errno.EPERM, e.errno());
            assertNull(e.extackMessage());
            assertTrue(e.getMessage().contains("CAP_NET_ADMIN"), e.getMessage());
            assertEquals(Errno.EPERM, assertThrows(NetlinkException.class, () -> nl.deleteDevice("vdpa0")).errno());
            assertEquals(Errno.EPERM, assertThrows(NetlinkException.class, () -> nl.vendorStats("vdpa0", 0)).errno());
            // genetlink looks the op up before the permission check: no DEV_ATTR_SET (6.1) is EOPNOTSUPP
            assertEquals(kernelHas(VdpaCommand.DEV_ATTR_SET) ? Errno.EPERM : Errno.EOPNOTSUPP,
                    assertThrows(NetlinkException.class, () -> nl.setMacAddress("vdpa0", VDPA0_MAC)).errno());
            // the permission check comes before attribute validation
            GenlSocket s = nl.socket();
            int seq = s.nextSeq();
            ErrorMessage early = lastError(s.exchangeRaw(request(VdpaCommand.DEV_NEW, NLM_F_REQUEST | NLM_F_ACK, seq,
                    w -> w.putAttribute(38, new byte[4])), seq, WAIT));
            assertEquals(Errno.EPERM, early.errno());
            assertNoExtack(early);
            // and an unknown command is EOPNOTSUPP, not EPERM
            int seq2 = s.nextSeq();
            MessageWriter w = new MessageWriter();
            w.beginMessage(familyId, NLM_F_REQUEST | NLM_F_ACK, seq2, 0).genlHeader(9, 1);
            w.endMessage();
            assertEquals(Errno.EOPNOTSUPP, lastError(s.exchangeRaw(w.toByteArray(), seq2, WAIT)).errno());
        }
        assertEquals(VDPA0_MAC.toString(), vdpa().config("vdpa0").net().mac(), "vdpa0 is untouched");
    }

    // ================================================================== dumps

    @Test
    void manyDevicesDumpAcrossDatagramsEndingWithALoneDone() {
        VdpaNetlink nl = vdpa();
        for (int i = 10; i < 70; i++) {
            nl.addDevice(track(DeviceSpec.of(String.format("nlc%02d", i), "vdpasim_net")));
        }
        List<VdpaDevInfo> reference = nl.devices();
        for (int i = 10; i < 70; i++) {
            String name = String.format("nlc%02d", i);
            assertTrue(reference.stream().anyMatch(d -> d.name().equals(name)), name + " is listed");
        }
        List<String> order = reference.stream().map(VdpaDevInfo::name).filter(n -> n.startsWith("nlc")).toList();
        assertEquals(order.stream().sorted().toList(), order, "devices are listed in creation order");

        // a fresh socket: the first datagram is capped near NLMSG_GOODSIZE, later ones follow the recv buffer
        GenlSocket fresh = socket();
        int seq = fresh.nextSeq();
        fresh.sendRaw(request(VdpaCommand.DEV_GET, NLM_F_REQUEST | NLM_F_DUMP, seq, null));
        List<byte[]> datagrams = receiveUntilDone(fresh, 32 * 1024);
        assertTrue(datagrams.size() >= 3, "at least two data datagrams and DONE");
        int first = datagrams.getFirst().length;
        assertTrue(first <= FIRST_DUMP_DATAGRAM && first > FIRST_DUMP_DATAGRAM - 100, "first datagram " + first + " bytes");
        for (byte[] d : datagrams.subList(1, datagrams.size() - 1)) {
            assertTrue(d.length <= MAX_DUMP_DATAGRAM);
        }
        byte[] done = datagrams.getLast();
        assertEquals(20, done.length, "NLMSG_DONE comes alone");
        DoneMessage dm = assertInstanceOf(DoneMessage.class, NetlinkDecoder.decode(done).getFirst());
        assertEquals(NLM_F_MULTI, dm.header().flags());
        assertEquals(0, dm.status());
        List<String> names = new ArrayList<>();
        for (byte[] d : datagrams.subList(0, datagrams.size() - 1)) {
            for (NetlinkMessage m : NetlinkDecoder.decode(d)) {
                GenlMessage g = assertInstanceOf(GenlMessage.class, m);
                assertEquals(NLM_F_MULTI, g.header().flags());
                assertEquals(seq, g.header().seq());
                names.add(g.attributes().string(DEV_NAME.number()));
            }
        }
        assertEquals(reference.stream().map(VdpaDevInfo::name).toList(), names);
        if (reference.size() * 88 <= MAX_DUMP_DATAGRAM) {
            assertEquals(3, datagrams.size(), "after one 32 KiB recv the rest fits one datagram");
        }
        truncatedDatagramLosesItsMessages(socket().dump(req("DEV_GET dump", VdpaCommand.DEV_GET, null)));
    }

    /**
     * With the many devices of the previous case in place: a receive into 1024 bytes without
     * peeking reports the whole datagram (MSG_TRUNC) and loses what did not fit; the dump goes on
     * with the next datagram.
     */
    void truncatedDatagramLosesItsMessages(List<GenlMessage> reference) {
        GenlSocket fresh = socket();
        int seq = fresh.nextSeq();
        fresh.sendRaw(request(VdpaCommand.DEV_GET, NLM_F_REQUEST | NLM_F_DUMP, seq, null));
        long full;
        try (Arena arena = Arena.ofConfined()) {
            assertTrue(sys().poll(fresh.fd(), POLLIN, (int) WAIT.toMillis()) != 0);
            full = sys().recvfrom(fresh.fd(), arena.allocate(1024), MSG_TRUNC);
        }
        assertTrue(full > 1024, "MSG_TRUNC reports the whole datagram: " + full);
        int lost = 0;
        long sum = 0;
        while (sum < full) {
            sum += reference.get(lost++).header().length();
        }
        assertEquals(full, sum, "the datagram held whole messages");
        assertTrue(lost < reference.size(), "the dump had more than one datagram");
        List<String> rest = new ArrayList<>();
        for (byte[] d : receiveUntilDone(fresh, 32 * 1024)) {
            for (NetlinkMessage m : NetlinkDecoder.decode(d)) {
                if (m instanceof GenlMessage g) {
                    rest.add(g.attributes().string(DEV_NAME.number()));
                }
            }
        }
        assertEquals(reference.subList(lost, reference.size()).stream().map(g -> g.attributes().string(DEV_NAME.number())).toList(), rest,
                "the dump continues after the truncated datagram; its messages are gone");
    }

    @Test
    void aSecondDumpOnTheSameSocketWhileOneRunsIsEbusy() {
        GenlSocket s = socket();
        int seq1 = s.nextSeq();
        int seq2 = s.nextSeq();
        MessageWriter both = new MessageWriter();
        both.putRaw(request(VdpaCommand.MGMTDEV_GET, NLM_F_REQUEST | NLM_F_DUMP, seq1, null));
        both.putRaw(request(VdpaCommand.DEV_GET, NLM_F_REQUEST | NLM_F_DUMP, seq2, null));
        s.sendRaw(both.toByteArray());
        boolean sawBusy = false;
        boolean sawDone = false;
        while (!(sawBusy && sawDone)) {
            for (NetlinkMessage m : NetlinkDecoder.decode(s.receiveRaw(WAIT))) {
                if (m instanceof ErrorMessage e && e.header().seq() == seq2) {
                    assertEquals(Errno.EBUSY, e.errno());
                    sawBusy = true;
                } else if (m instanceof DoneMessage d && d.header().seq() == seq1) {
                    sawDone = true;
                }
            }
        }
    }

    // ================================================================== DEV_CONFIG_GET

    @Test
    void configOfVdpa0HasTheVerifiedShape() {
        GenlMessage m = socket().doit(req("config vdpa0", VdpaCommand.DEV_CONFIG_GET, w -> w.putString(DEV_NAME.number(), "vdpa0"))).single();
        assertEquals(80, m.header().length());
        assertEquals(VdpaCommand.DEV_CONFIG_GET.number(), m.cmd());
        assertEquals(netConfigTypes(false, DEV_NET_CFG_MTU.number(), DEV_NET_CFG_MACADDR.number(), DEV_NET_STATUS.number()),
                types(m));
        assertEquals(2, m.attributes().require(DEV_NET_STATUS.number()).length(), "NET_STATUS is a u16 on the wire");
        DevConfig c = vdpa().config("vdpa0");
        assertEquals(new DevConfig("vdpa0", 1, null, netFeatures(), NetConfig.ofNetlink(VDPA0_MAC.toString(), 1500, 1, null), null,
                null, null), c);
    }

    @Test
    void configOfTheBlockDeviceHasAllSixteenBlockAttributes() {
        if (legacyConfig()) {
            // 6.1's vdpa_dev_config_fill fills net devices only
            assertFailsWithoutExtack(Errno.EOPNOTSUPP, VdpaCommand.DEV_CONFIG_GET, w -> w.putString(DEV_NAME.number(), "vdpa1"));
            return;
        }
        GenlMessage m = socket().doit(req("config vdpa1", VdpaCommand.DEV_CONFIG_GET, w -> w.putString(DEV_NAME.number(), "vdpa1"))).single();
        assertEquals(184, m.header().length());
        List<Integer> expected = new ArrayList<>(List.of(DEV_NAME.number(), DEV_ID.number(), DEV_FEATURES.number()));
        for (int a = DEV_BLK_CFG_CAPACITY.number(); a <= DEV_BLK_FLUSH.number(); a++) {
            expected.add(a);
        }
        assertEquals(expected, types(m));
        DevConfig c = vdpa().config("vdpa1");
        BlkConfig b = c.blk();
        assertEquals(BLK_DEVICE_FEATURES, vdpa().config("vdpa1").deviceFeatures());
        assertEquals(0x40000L, b.capacity());
        assertEquals(4096L, b.sizeMax());
        assertEquals(512L, b.blkSize());
        assertEquals(32L, b.segMax());
        assertEquals(1, b.numQueues());
        assertEquals(0xffffffffL, b.maxDiscardSectors());
        assertEquals(0xffffffffL, b.maxWriteZeroesSectors());
        assertFalse(c.readOnly());
        assertTrue(c.flush());
    }

    @Test
    void configDumpAndFailures() {
        List<DevConfig> all = vdpa().configs();
        assertTrue(all.stream().anyMatch(c -> c.name().equals("vdpa0") && VDPA0_MAC.toString().equals(c.net().mac())));
        // 6.1 cannot fill a block device's config: its dump stops there
        assertEquals(!legacyConfig(), all.stream().anyMatch(c -> c.name().equals("vdpa1") && c.blk() != null));
        assertFails(Errno.ENODEV, "vdpa: device not found", VdpaCommand.DEV_CONFIG_GET, w -> w.putString(DEV_NAME.number(), "nosuch"));
        assertFailsWithoutExtack(Errno.EINVAL, VdpaCommand.DEV_CONFIG_GET, null);
    }

    // ================================================================== DEV_VSTATS_GET

    @Test
    void vendorStatsChecksComeInTheKernelsOrder() {
        String nn = kernel().netlink().queueIndexText(); // 6.1: the kernel's "excceeds", byte for byte
        assertFails(Errno.ERANGE, nn, VdpaCommand.DEV_VSTATS_GET, w -> {
            w.putString(DEV_NAME.number(), "vdpa0");
            w.putU32(DEV_QUEUE_INDEX.number(), 0x8001);
        });
        if (simVendorStats()) {
            assertFails(Errno.EAGAIN, "vdpa: feature negotiation not complete", VdpaCommand.DEV_VSTATS_GET, w -> {
                w.putString(DEV_NAME.number(), "vdpa0");
                w.putU32(DEV_QUEUE_INDEX.number(), 0);
            });
        } else {
            // no get_vendor_vq_stats (6.1's vdpa_sim): refused before the FEATURES_OK check
            assertFailsWithoutExtack(Errno.EOPNOTSUPP, VdpaCommand.DEV_VSTATS_GET, w -> {
                w.putString(DEV_NAME.number(), "vdpa0");
                w.putU32(DEV_QUEUE_INDEX.number(), 0);
            });
        }
        assertFailsWithoutExtack(Errno.EOPNOTSUPP, VdpaCommand.DEV_VSTATS_GET, w -> {
            w.putString(DEV_NAME.number(), "vdpa1");
            w.putU32(DEV_QUEUE_INDEX.number(), 0);
        });
        assertFailsWithoutExtack(Errno.EINVAL, VdpaCommand.DEV_VSTATS_GET, w -> w.putString(DEV_NAME.number(), "vdpa0"));
        assertFails(Errno.ENODEV, "vdpa: device not found", VdpaCommand.DEV_VSTATS_GET, w -> {
            w.putString(DEV_NAME.number(), "nosuch");
            w.putU32(DEV_QUEUE_INDEX.number(), 0);
        });
        NetlinkException e = assertThrows(NetlinkException.class, () -> vdpa().vendorStats("vdpa0", 0));
        if (simVendorStats()) {
            assertEquals(Errno.EAGAIN, e.errno());
            assertTrue(e.getMessage().contains("FEATURES_OK"), e.getMessage());
        } else {
            assertEquals(Errno.EOPNOTSUPP, e.errno());
        }
    }

    @Test
    void afterFeaturesOkConfigShowsNegotiatedFeaturesAndVendorStatsAnswer() {
        VdpaNetlink nl = vdpa();
        nl.addDevice(track(DeviceSpec.of("nlc91", "vdpasim_net").withMac(MacAddress.parse("02:00:00:00:00:91"))));
        int fd = sys().open(waitForNode("nlc91"), libc_h.O_RDWR());
        try (Arena arena = Arena.ofConfined()) {
            sys().ioctl(fd, VhostIoctl.SET_OWNER.code(), MemorySegment.NULL);
            MemorySegment features = arena.allocate(ValueLayout.JAVA_LONG);
            features.set(ValueLayout.JAVA_LONG, 0, 0x300010028L);
            MemorySegment status = arena.allocate(1);
            status.set(ValueLayout.JAVA_BYTE, 0, (byte) 0x3);
            sys().ioctl(fd, VhostIoctl.VDPA_SET_STATUS.code(), status);
            sys().ioctl(fd, VhostIoctl.SET_FEATURES.code(), features);
            status.set(ValueLayout.JAVA_BYTE, 0, (byte) 0xB);
            sys().ioctl(fd, VhostIoctl.VDPA_SET_STATUS.code(), status);

            GenlMessage m = socket().doit(req("config", VdpaCommand.DEV_CONFIG_GET, w -> w.putString(DEV_NAME.number(), "nlc91"))).single();
            assertEquals(92, m.header().length());
            assertEquals(netConfigTypes(true, DEV_NET_CFG_MTU.number(), DEV_NET_CFG_MACADDR.number(), DEV_NET_STATUS.number()),
                    types(m));
            long negotiated = 0x300010028L & netFeatures();
            assertEquals(negotiated, nl.config("nlc91").negotiatedFeatures());
            if (!simVendorStats()) {
                assertEquals(Errno.EOPNOTSUPP, assertThrows(NetlinkException.class, () -> nl.vendorStats("nlc91", 0)).errno());
                return;
            }

            int[] sizes = {200, 172, 152};
            List<List<String>> names = List.of(
                    List.of("rx packets", "rx bytes", "rx errors", "rx overruns", "rx drops"),
                    List.of("tx packets", "tx bytes", "tx errors", "tx drops"),
                    List.of("cvq requests", "cvq successes", "cvq errors"));
            for (int q = 0; q < 3; q++) {
                int qq = q;
                GenlMessage v = socket().doit(req("vstats", VdpaCommand.DEV_VSTATS_GET, w -> {
                    w.putString(DEV_NAME.number(), "nlc91");
                    w.putU32(DEV_QUEUE_INDEX.number(), qq);
                })).single();
                assertEquals(sizes[q], v.header().length(), "queue " + q);
                assertEquals(List.of(DEV_NAME.number(), DEV_ID.number(), DEV_NEGOTIATED_FEATURES.number(), DEV_QUEUE_INDEX.number()),
                        types(v).subList(0, 4));
                VendorStats s = nl.vendorStats("nlc91", q);
                assertEquals(names.get(q), s.stats().stream().map(VendorStats.Stat::name).toList());
                assertTrue(s.stats().stream().allMatch(st -> st.value() == 0), "no traffic, no counts");
                assertEquals(q, s.queueIndex());
                assertEquals(0x300010028L, s.negotiatedFeatures());
            }
            assertEquals("rx", nl.vendorStats("nlc91", 0).queueType());
            for (int bad : new int[] {3, 0x8000}) {
                ErrorMessage e = errorOf(VdpaCommand.DEV_VSTATS_GET, w -> {
                    w.putString(DEV_NAME.number(), "nlc91");
                    w.putU32(DEV_QUEUE_INDEX.number(), bad);
                });
                assertEquals(Errno.EINVAL, e.errno(), "index " + bad);
                assertNoExtack(e);
            }
        } finally {
            sys().close(fd);
        }
        assertNull(nl.config("nlc91").negotiatedFeatures(), "close resets the device");
    }

    // ================================================================== DEV_ATTR_SET

    @Test
    void attrSetChangesTheMacOfANetDevice() {
        VdpaNetlink nl = vdpa();
        if (!kernelHas(VdpaCommand.DEV_ATTR_SET)) {
            // 6.1: no such op, genetlink answers EOPNOTSUPP without extack
            assertFailsWithoutExtack(Errno.EOPNOTSUPP, VdpaCommand.DEV_ATTR_SET, w -> w.putString(DEV_NAME.number(), "vdpa0"));
            return;
        }
        nl.addDevice(track(DeviceSpec.of("nlc92", "vdpasim_net").withMac(MacAddress.parse("02:00:00:00:00:92"))));
        assertTrue(nl.setMacAddress("nlc92", MacAddress.parse("02:aa:bb:cc:dd:ee")).isEmpty());
        assertEquals("02:aa:bb:cc:dd:ee", nl.config("nlc92").net().mac());
        for (String bad : new String[] {"01:00:5e:00:00:01", "00:00:00:00:00:00"}) {
            NetlinkException e = assertThrows(NetlinkException.class, () -> nl.setMacAddress("nlc92", MacAddress.parse(bad)));
            assertEquals(Errno.EOPNOTSUPP, e.errno());
            assertEquals("vdpa: Invalid MAC address", e.extackMessage());
        }
        assertFailsWithoutExtack(Errno.EOPNOTSUPP, VdpaCommand.DEV_ATTR_SET, w -> w.putString(DEV_NAME.number(), "nlc92"));
        assertFailsWithoutExtack(Errno.EOPNOTSUPP, VdpaCommand.DEV_ATTR_SET, w -> {
            w.putString(DEV_NAME.number(), "nlc92");
            w.putU16(DEV_NET_CFG_MTU.number(), 1500);
        });
        assertFails(Errno.ENODEV, "vdpa: device not found", VdpaCommand.DEV_ATTR_SET, w -> {
            w.putString(DEV_NAME.number(), "nosuch");
            w.putAttribute(DEV_NET_CFG_MACADDR.number(), VDPA0_MAC.octets());
        });
        assertFailsWithoutExtack(Errno.EINVAL, VdpaCommand.DEV_ATTR_SET, null);
    }

    @Test
    void attrSetOnTheBlockDeviceSucceedsWithAWarningInTheAck() {
        if (!kernelHas(VdpaCommand.DEV_ATTR_SET)) {
            return; // covered by attrSetChangesTheMacOfANetDevice: no such command on this kernel
        }
        GenlSocket s = socket();
        int seq = s.nextSeq();
        List<NetlinkMessage> answer = s.exchangeRaw(request(VdpaCommand.DEV_ATTR_SET, NLM_F_REQUEST | NLM_F_ACK, seq, w -> {
            w.putString(DEV_NAME.number(), "vdpa1");
            w.putAttribute(DEV_NET_CFG_MACADDR.number(), MacAddress.parse("02:00:00:00:00:aa").octets());
        }), seq, WAIT);
        ErrorMessage ack = assertInstanceOf(ErrorMessage.class, answer.getLast());
        assertEquals(0, ack.error());
        assertEquals(NLM_F_CAPPED | NLM_F_ACK_TLVS, ack.header().flags());
        assertEquals(36 + 40, ack.header().length());
        assertEquals("vdpa: vdpa1 device not supported", ack.extack().message());
        assertEquals(Optional.of("vdpa: vdpa1 device not supported"),
                vdpa().setMacAddress("vdpa1", MacAddress.parse("02:00:00:00:00:aa")));
    }

    // ================================================================== sysfs link

    @Test
    void aDeviceNameLeadsToItsVhostNode() {
        VhostDeviceNodes.BusEntry n = VhostDeviceNodes.busEntry(sys(), "vdpa0").orElseThrow();
        assertTrue(n.path().matches("/dev/vhost-vdpa-\\d+"), n.path());
        assertEquals(n.devNumber(), sys().stat(n.path()).devNumber());
        assertEquals(n.path(), VhostDeviceNodes.resolve(sys(), "vdpa0").path());
        assertEquals(Optional.of("vhost_vdpa"), VhostDeviceNodes.driver(sys(), "vdpa0"));
        assertEquals(Optional.of("vdpa0"), VhostDeviceNodes.vdpaNameOf(sys(), n.path()));
        assertEquals(Optional.empty(), VhostDeviceNodes.busEntry(sys(), "nosuch"));
        assertThrows(VhostNodeException.class, () -> VhostDeviceNodes.resolve(sys(), "nosuch"));
    }

    // ================================================================== helpers

    Syscalls sys() {
        return backend.privileged();
    }

    <T extends AutoCloseable> T track(T resource) {
        return cleanup.track(resource);
    }

    DeviceSpec track(DeviceSpec spec) {
        created.add(spec.name());
        return spec;
    }

    GenlSocket socket() {
        return track(GenlSocket.open(sys()));
    }

    GenlSocket socket(GenlSocket.Options options) {
        return track(GenlSocket.open(sys(), options));
    }

    VdpaNetlink vdpa() {
        return track(VdpaNetlink.open(sys()));
    }

    // ------------------------------------------------------------------ per-kernel facts

    /** The family as the kernel describes it: which commands exist is asked, not assumed. */
    boolean kernelHas(VdpaCommand c) {
        return vdpa().family().supports(c.number());
    }

    /** Config replies use 6.1's layout (device features as attribute 21): the family's maxattr says so. */
    boolean legacyConfig() {
        return vdpa().legacyAttributeNumbering();
    }

    /** vdpasim_net's features on this kernel (no VIRTIO_NET_F_STATUS on 6.1). */
    long netFeatures() {
        return kernel().driver("vdpasim_net").map(d -> NET_FEATURES & ~MacroValues.bitMask(d.removeFeatures()))
                .orElse(NET_FEATURES);
    }

    /** vdpa_sim has get_vendor_vq_stats on this kernel (not on 6.1). */
    boolean simVendorStats() {
        return kernel().driver("vdpasim_net").map(KernelProfile.DriverDelta::vendorStats).orElse(true);
    }

    /** The attribute types of vdpa0-like config replies: 6.1 puts the status first and features as 21. */
    List<Integer> netConfigTypes(boolean negotiated, int... tail) {
        List<Integer> t = new ArrayList<>(List.of(DEV_NAME.number(), DEV_ID.number()));
        if (negotiated) {
            t.add(DEV_NEGOTIATED_FEATURES.number());
        }
        if (legacyConfig()) {
            t.add(DEV_NET_STATUS.number());
            t.add(21);
        } else {
            t.add(DEV_FEATURES.number());
        }
        for (int a : tail) {
            if (a != DEV_NET_STATUS.number() || !legacyConfig()) {
                t.add(a);
            }
        }
        return t;
    }

    GenlRequest req(String op, VdpaCommand cmd, Consumer<MessageWriter> attrs) {
        return GenlRequest.of(op, familyId, cmd.number(), 1, attrs);
    }

    byte[] request(VdpaCommand cmd, int flags, int seq, Consumer<MessageWriter> attrs) {
        MessageWriter w = new MessageWriter();
        w.beginMessage(familyId, flags, seq, 0).genlHeader(cmd.number(), 1);
        if (attrs != null) {
            attrs.accept(w);
        }
        w.endMessage();
        return w.toByteArray();
    }

    static byte[] getFamily(int seq, String name) {
        MessageWriter w = new MessageWriter();
        w.beginMessage(GENL_ID_CTRL, NLM_F_REQUEST | NLM_F_ACK, seq, 0).genlHeader(CTRL_CMD_GETFAMILY, 1)
                .putString(CTRL_ATTR_FAMILY_NAME, name);
        w.endMessage();
        return w.toByteArray();
    }

    ErrorMessage errorOf(VdpaCommand cmd, Consumer<MessageWriter> attrs) {
        return rawError(GenlSocket.Options.DEFAULT, cmd, attrs);
    }

    ErrorMessage rawError(GenlSocket.Options options, VdpaCommand cmd, Consumer<MessageWriter> attrs) {
        GenlSocket s = socket(options);
        int seq = s.nextSeq();
        ErrorMessage e = lastError(s.exchangeRaw(request(cmd, NLM_F_REQUEST | NLM_F_ACK, seq, attrs), seq, WAIT));
        assertEquals(seq, e.header().seq());
        assertEquals(s.portId(), e.header().pid());
        assertEquals(seq, e.request().seq(), "the error echoes the request header");
        return e;
    }

    static ErrorMessage lastError(List<NetlinkMessage> answer) {
        ErrorMessage e = assertInstanceOf(ErrorMessage.class, answer.getLast(), answer.toString());
        assertTrue(e.error() < 0, "expected an error, got " + answer);
        return e;
    }

    void assertFails(int errno, String extack, VdpaCommand cmd, Consumer<MessageWriter> attrs) {
        ErrorMessage e = errorOf(cmd, attrs);
        assertEquals(errno, e.errno(), Errno.name(e.errno()) + " " + e.extack());
        assertEquals(extack, e.extack().message());
        assertNull(e.extack().offset());
        assertEquals(NLM_F_CAPPED | NLM_F_ACK_TLVS, e.header().flags());
        assertEquals(36 + nlaAlign(4 + extack.length() + 1), e.header().length());
    }

    void assertFailsWithoutExtack(int errno, VdpaCommand cmd, Consumer<MessageWriter> attrs) {
        ErrorMessage e = errorOf(cmd, attrs);
        assertEquals(errno, e.errno(), Errno.name(e.errno()) + " " + e.extack());
        assertNoExtack(e);
    }

    static void assertNoExtack(ErrorMessage e) {
        assertTrue(e.extack().isEmpty(), e.extack().toString());
        assertEquals(0, e.header().flags() & NLM_F_ACK_TLVS);
    }

    /** DEV_NEW with attributes outside the mgmtdev's mask: the text of the kernel in use (6.1's names no mask). */
    void assertMaskError(DeviceSpec spec, long mask) {
        created.add(spec.name());
        NetlinkException e = assertThrows(NetlinkException.class, () -> vdpa().addDevice(spec));
        assertEquals(Errno.EOPNOTSUPP, e.errno());
        assertEquals(kernel().netlink().unsupportedAttributesText(mask), e.extackMessage());
        // the client names the option even where the kernel's text has no mask (6.1)
        String option = VdpaAttribute.describeMask(mask).get(0);
        assertTrue(e.getMessage().contains(option), e.getMessage());
    }

    static void assertAck(NetlinkMessage m, int seq, GenlSocket s) {
        ErrorMessage ack = assertInstanceOf(ErrorMessage.class, m);
        assertEquals(0, ack.error());
        assertEquals(36, ack.header().length());
        assertEquals(NLM_F_CAPPED, ack.header().flags());
        assertEquals(seq, ack.header().seq());
        assertEquals(s.portId(), ack.header().pid());
        assertEquals(0, ack.requestPayload().length);
    }

    static void assertPolicy(ErrorMessage e, int nestLength, long[][] expected) {
        assertTrue(e.extack().offset() != null, "OFFS accompanies a policy error");
        List<Attribute> p = e.extack().policy().list();
        assertEquals(expected.length, p.size(), p.toString());
        int len = 4;
        for (int i = 0; i < expected.length; i++) {
            assertEquals((int) expected[i][0], p.get(i).type());
            assertEquals(expected[i][1], p.get(i).unsigned());
            len += nlaAlign(4 + p.get(i).length());
        }
        assertEquals(nestLength, len, "POLICY nla_len");
    }

    static List<Integer> types(GenlMessage m) {
        return m.attributes().list().stream().map(Attribute::type).toList();
    }

    static GenlMessage byName(List<GenlMessage> all, VdpaAttribute attr, String name) {
        return all.stream().filter(m -> m.attributes().optionalString(attr.number()).orElse("").equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError(name + " missing from " + all));
    }

    /** Receives datagrams into a buffer of {@code size} (no peeking) until one holds NLMSG_DONE. */
    List<byte[]> receiveUntilDone(GenlSocket s, int size) {
        List<byte[]> out = new ArrayList<>();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buf = arena.allocate(size);
            while (true) {
                assertTrue(sys().poll(s.fd(), POLLIN, (int) WAIT.toMillis()) != 0, "the dump went silent");
                long n = sys().recvfrom(s.fd(), buf, 0);
                byte[] d = buf.asSlice(0, n).toArray(ValueLayout.JAVA_BYTE);
                out.add(d);
                if (NetlinkDecoder.decode(d).stream().anyMatch(m -> m instanceof DoneMessage)) {
                    return out;
                }
            }
        }
    }

    /** The vhost-vdpa node of a device; udev creates it shortly after DEV_NEW on a real kernel. */
    String waitForNode(String name) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (true) {
            var n = VhostDeviceNodes.busEntry(sys(), name);
            if (n.isPresent()) {
                try {
                    sys().stat(n.get().path());
                    return n.get().path();
                } catch (SyscallException notYet) {
                    // devtmpfs has not created it yet
                }
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no vhost-vdpa node for " + name);
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }
}
