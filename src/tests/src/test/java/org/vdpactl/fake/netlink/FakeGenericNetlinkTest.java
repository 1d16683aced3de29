package org.vdpactl.fake.netlink;

import static org.vdpactl.abi.UapiGenlCtrlAttribute.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.vdpactl.netlink.NetlinkAbi.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.vdpactl.fake.FakeKernel;
import org.vdpactl.fake.FakeProcess;
import org.vdpactl.fake.fault.FaultRule;
import org.vdpactl.ffi.gen.libc.libc_h;
import org.vdpactl.ffi.gen.netlink.sockaddr_nl;
import org.vdpactl.mgmt.DeviceSpec;
import org.vdpactl.mgmt.FamilyNotAvailableException;
import org.vdpactl.mgmt.VdpaNetlink;
import org.vdpactl.netlink.GenlRequest;
import org.vdpactl.netlink.GenlSocket;
import org.vdpactl.netlink.MessageWriter;
import org.vdpactl.netlink.NetlinkDecoder;
import org.vdpactl.netlink.NetlinkException;
import org.vdpactl.netlink.NetlinkMessage;
import org.vdpactl.netlink.NetlinkMessage.DoneMessage;
import org.vdpactl.netlink.NetlinkMessage.ErrorMessage;
import org.vdpactl.netlink.NetlinkMessage.GenlMessage;
import org.vdpactl.netlink.NetlinkTimeoutException;
import org.vdpactl.sys.Errno;
import org.vdpactl.sys.SyscallException;

/**
 * What the fake's generic netlink does beyond the conformance suite (where no real kernel can be
 * made to do it on demand): module unload, other network namespaces, fault injection, socket
 * binding and options, silently dropped messages, several requests in one datagram.
 */
class FakeGenericNetlinkTest {
    private static final Duration WAIT = Duration.ofSeconds(5);
    private final FakeKernel kernel = FakeKernel.builder().build();
    private final FakeNetlink netlink = FakeNetlink.install(kernel);
    private final FakeProcess proc = kernel.newProcess();

    @AfterEach
    void close() {
        proc.close();
        kernel.close();
    }

    @Test
    void withoutTheVdpaModuleTheFamilyIsMissing() {
        netlink.generic().setVdpaFamilyRegistered(false);
        FamilyNotAvailableException e = assertThrows(FamilyNotAvailableException.class, () -> VdpaNetlink.open(proc));
        assertEquals(Errno.ENOENT, e.errno());
        assertEquals("vdpa netlink family not available: is the vdpa module loaded?", e.getMessage());
        try (GenlSocket s = GenlSocket.open(proc)) {
            NetlinkException direct = assertThrows(NetlinkException.class,
                    () -> s.doit(GenlRequest.of("DEV_GET", 19, 5, 1, w -> w.putString(4, "vdpa0"))));
            assertEquals(Errno.ENOENT, direct.errno());
        }
        netlink.generic().setVdpaFamilyRegistered(true);
        try (VdpaNetlink nl = VdpaNetlink.open(proc)) {
            assertEquals("vdpa0", nl.device("vdpa0").name());
        }
    }

    @Test
    void anotherNetworkNamespaceSeesNoVdpaFamilyButNlctrl() {
        FakeProcess contained = kernel.newProcess();
        netlink.setInitialNetNamespace(contained, false);
        try (GenlSocket s = GenlSocket.open(contained)) {
            assertEquals(GENL_ID_CTRL, s.resolveFamily("nlctrl").id());
            assertEquals(Errno.ENOENT, assertThrows(NetlinkException.class, () -> s.resolveFamily("vdpa")).errno());
            assertEquals(Errno.ENOENT, assertThrows(NetlinkException.class,
                    () -> s.doit(GenlRequest.of("DEV_GET", 19, 5, 1, w -> w.putString(4, "vdpa0")))).errno());
            assertEquals(Errno.ENOENT, assertThrows(NetlinkException.class,
                    () -> s.dump(GenlRequest.of("DEV_GET dump", 19, 5, 1, null))).errno());
            List<GenlMessage> families = s.dump(GenlRequest.of("families", GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 1, null));
            assertEquals(List.of("nlctrl"), families.stream().map(m -> m.attributes().string(CTRL_ATTR_FAMILY_NAME)).toList());
        } finally {
            contained.close();
        }
    }

    @Test
    void theFamilyIdCanBeChosen() {
        FakeKernel k = FakeKernel.builder().build();
        FakeNetlink.install(k, 0x1f);
        try (FakeProcess p = k.newProcess(); VdpaNetlink nl = VdpaNetlink.open(p)) {
            assertEquals(0x1f, nl.family().id());
            assertEquals(1, nl.device("vdpa0").deviceId());
        } finally {
            k.close();
        }
    }

    @Test
    void faultsAreInjectedByCommandNameAndDevice() {
        kernel.faults().addRule(FaultRule.errnoAt("flaky*", "VDPA_CMD_DEV_NEW", 1, Errno.EIO));
        try (VdpaNetlink nl = VdpaNetlink.open(proc)) {
            NetlinkException e = assertThrows(NetlinkException.class, () -> nl.addDevice(DeviceSpec.of("flaky0", "vdpasim_net")));
            assertEquals(Errno.EIO, e.errno());
            assertEquals(Errno.ENODEV, assertThrows(NetlinkException.class, () -> nl.device("flaky0")).errno(), "not created");
            nl.addDevice(DeviceSpec.of("flaky1", "vdpasim_net"));
            assertEquals("flaky1", nl.device("flaky1").name(), "the rule fired once");
            nl.addDevice(DeviceSpec.of("solid0", "vdpasim_net"));
            nl.deleteDevice("flaky1");
            nl.deleteDevice("solid0");
        }
        assertEquals(1, kernel.faults().fired().size());
    }

    @Test
    void dumpsCanBeFailedToo() {
        kernel.faults().addRule(FaultRule.errnoAlways("*", "VDPA_CMD_MGMTDEV_GET", Errno.ENOMEM));
        try (VdpaNetlink nl = VdpaNetlink.open(proc)) {
            assertEquals(Errno.ENOMEM, assertThrows(NetlinkException.class, nl::mgmtDevices).errno());
        }
    }

    @Test
    void aMessageLongerThanItsDatagramIsDroppedSilently() {
        try (GenlSocket s = GenlSocket.open(proc, GenlSocket.Options.DEFAULT.withTimeout(Duration.ofMillis(200)))) {
            MessageWriter w = new MessageWriter();
            w.beginMessage(19, NLM_F_REQUEST | NLM_F_ACK, 1, 0).genlHeader(5, 1).putString(4, "vdpa0");
            w.endMessage();
            byte[] cut = Arrays.copyOf(w.toByteArray(), w.size() - 4);
            s.sendRaw(cut);
            assertThrows(NetlinkTimeoutException.class, () -> s.receiveRaw(Duration.ofMillis(200)));
        }
    }

    @Test
    void severalRequestsInOneDatagramAreAnsweredInOrder() {
        try (GenlSocket s = GenlSocket.open(proc)) {
            MessageWriter w = new MessageWriter();
            w.beginMessage(19, NLM_F_REQUEST | NLM_F_ACK, 11, 0).genlHeader(5, 1).putString(4, "vdpa0");
            w.endMessage();
            w.beginMessage(19, NLM_F_REQUEST | NLM_F_ACK, 12, 0).genlHeader(5, 1).putString(4, "nosuch");
            w.endMessage();
            w.beginMessage(NLMSG_NOOP, NLM_F_REQUEST | NLM_F_ACK, 13, 0);
            w.endMessage();
            w.beginMessage(19, NLM_F_ACK, 14, 0).genlHeader(5, 1).putString(4, "vdpa0"); // not a request: only ACKed
            w.endMessage();
            s.sendRaw(w.toByteArray());
            List<String> seen = new ArrayList<>();
            while (seen.size() < 5) {
                for (NetlinkMessage m : NetlinkDecoder.decode(s.receiveRaw(WAIT))) {
                    seen.add(m.header().seq() + ":" + (m instanceof ErrorMessage e ? "err" + e.error() : "reply"));
                }
            }
            assertEquals(List.of("11:reply", "11:err0", "12:err-19", "13:err0", "14:err0"), seen);
        }
    }

    @Test
    void portIdsFollowAutobind() {
        try (GenlSocket first = GenlSocket.open(proc); GenlSocket second = GenlSocket.open(proc)) {
            assertEquals(proc.pid(), first.portId(), "the first socket of a process gets its pid");
            assertTrue(second.portId() < 0, "later ones get negative ids: " + second.portId());
        }
        try (GenlSocket again = GenlSocket.open(proc)) {
            assertEquals(proc.pid(), again.portId(), "closing released the port");
        }
    }

    @Test
    void socketCallsCheckTheirArguments() {
        int fd = proc.socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
        try (Arena arena = Arena.ofShared()) {
            MemorySegment addr = sockaddr_nl.allocate(arena);
            assertEquals(12, proc.getsockname(fd, addr));
            assertEquals(0, sockaddr_nl.nl_pid(addr), "unbound");
            assertEquals(Errno.EINVAL, assertThrows(SyscallException.class, () -> proc.bind(fd, arena.allocate(8))).errno());
            sockaddr_nl.nl_family(addr, (short) AF_NETLINK);
            sockaddr_nl.nl_pid(addr, 777);
            proc.bind(fd, addr);
            proc.getsockname(fd, addr);
            assertEquals(777, sockaddr_nl.nl_pid(addr));
            sockaddr_nl.nl_pid(addr, 778);
            assertEquals(Errno.EINVAL, assertThrows(SyscallException.class, () -> proc.bind(fd, addr)).errno(), "already bound");
            int other = proc.socket(AF_NETLINK, SOCK_RAW, NETLINK_GENERIC);
            sockaddr_nl.nl_pid(addr, 777);
            assertEquals(98, assertThrows(SyscallException.class, () -> proc.bind(other, addr)).errno(), "EADDRINUSE");
            proc.close(other);
            assertEquals(92, assertThrows(SyscallException.class, () -> proc.setsockopt(fd, SOL_NETLINK, 99, 1)).errno());
            assertEquals(61, assertThrows(SyscallException.class, () -> proc.sendto(fd, arena.allocate(0), 0, MemorySegment.NULL)).errno());
            sockaddr_nl.nl_pid(addr, 4242);
            assertEquals(111, assertThrows(SyscallException.class, () -> proc.sendto(fd, arena.allocate(20), 0, addr)).errno(),
                    "only the kernel (port 0) is reachable");
            assertEquals(Errno.EAGAIN, assertThrows(SyscallException.class,
                    () -> proc.recvfrom(fd, arena.allocate(64), MSG_DONTWAIT)).errno());
            assertEquals(0, proc.poll(fd, POLLIN, 100), "nothing queued: the timeout expires");
            assertEquals(94, assertThrows(SyscallException.class, () -> proc.socket(AF_NETLINK, 1, NETLINK_GENERIC)).errno(),
                    "SOCK_STREAM: ESOCKTNOSUPPORT");
        } finally {
            proc.close(fd);
        }
    }

    @Test
    void readAndWriteOnTheSocketAreRecvAndSend() {
        int fd = proc.socket(AF_NETLINK, SOCK_RAW | libc_h.SOCK_NONBLOCK(), NETLINK_GENERIC);
        try (Arena arena = Arena.ofShared()) {
            MessageWriter w = new MessageWriter();
            w.beginMessage(GENL_ID_CTRL, NLM_F_REQUEST, 5, 0).genlHeader(CTRL_CMD_GETFAMILY, 1).putString(CTRL_ATTR_FAMILY_NAME, "vdpa");
            w.endMessage();
            MemorySegment req = arena.allocate(w.size());
            MemorySegment.copy(w.segment(), 0, req, 0, w.size());
            assertEquals(w.size(), proc.write(fd, req));
            MemorySegment buf = arena.allocate(4096);
            long n = proc.read(fd, buf);
            GenlMessage g = assertInstanceOf(GenlMessage.class, NetlinkDecoder.decode(buf.asSlice(0, n)).getFirst());
            assertEquals("vdpa", g.attributes().string(CTRL_ATTR_FAMILY_NAME));
            assertEquals(Errno.EAGAIN, assertThrows(SyscallException.class, () -> proc.read(fd, buf)).errno(), "SOCK_NONBLOCK");
        } finally {
            proc.close(fd);
        }
    }

    @Test
    void withoutAnExplicitDestinationTheOpenersCapabilityCountsToo() {
        FakeProcess nobody = kernel.newProcess();
        netlink.setCapNetAdmin(nobody, false);
        int fd = nobody.socket(AF_NETLINK, SOCK_RAW, NETLINK_GENERIC);
        try (Arena arena = Arena.ofShared()) {
            netlink.setCapNetAdmin(nobody, true); // raised after opening the socket
            MessageWriter w = new MessageWriter();
            w.beginMessage(19, NLM_F_REQUEST | NLM_F_ACK, 9, 0).genlHeader(4, 1).putString(4, "nosuch");
            w.endMessage();
            MemorySegment req = arena.allocate(w.size());
            MemorySegment.copy(w.segment(), 0, req, 0, w.size());
            nobody.sendto(fd, req, 0, MemorySegment.NULL);
            MemorySegment buf = arena.allocate(4096);
            long n = nobody.recvfrom(fd, buf, 0);
            assertEquals(Errno.EPERM, ((ErrorMessage) NetlinkDecoder.decode(buf.asSlice(0, n)).getFirst()).errno());
            MemorySegment kernelAddr = sockaddr_nl.allocate(arena);
            sockaddr_nl.nl_family(kernelAddr, (short) AF_NETLINK);
            nobody.sendto(fd, req, 0, kernelAddr);
            n = nobody.recvfrom(fd, buf, 0);
            assertEquals(Errno.ENODEV, ((ErrorMessage) NetlinkDecoder.decode(buf.asSlice(0, n)).getFirst()).errno(),
                    "with an explicit destination only the sender's capability counts");
        } finally {
            nobody.close(fd);
            nobody.close();
        }
    }

    @Test
    void theNlctrlDumpEndsInTheSameDatagramWhenEverythingFits() {
        try (GenlSocket s = GenlSocket.open(proc)) {
            int seq = s.nextSeq();
            MessageWriter w = new MessageWriter();
            w.beginMessage(GENL_ID_CTRL, NLM_F_REQUEST | NLM_F_DUMP, seq, 0).genlHeader(CTRL_CMD_GETFAMILY, 1);
            w.endMessage();
            s.sendRaw(w.toByteArray());
            List<NetlinkMessage> first = NetlinkDecoder.decode(s.receiveRaw(WAIT));
            assertEquals(List.of("nlctrl", "vdpa"), first.stream().filter(m -> m instanceof GenlMessage)
                    .map(m -> ((GenlMessage) m).attributes().string(CTRL_ATTR_FAMILY_NAME)).toList());
            assertInstanceOf(DoneMessage.class, first.getLast(), "ctrl_dumpfamily returns 0, so DONE shares the datagram");
        }
    }

    @Test
    void getFamilyByIdAndWithoutAttributes() {
        try (GenlSocket s = GenlSocket.open(proc)) {
            GenlMessage byId = s.doit(GenlRequest.of("by id", GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 1,
                    w -> w.putU16(CTRL_ATTR_FAMILY_ID, 19))).single();
            assertEquals("vdpa", byId.attributes().string(CTRL_ATTR_FAMILY_NAME));
            assertEquals(Errno.EINVAL, assertThrows(NetlinkException.class,
                    () -> s.doit(GenlRequest.of("no attrs", GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 1, null))).errno());
            NetlinkException tooLong = assertThrows(NetlinkException.class, () -> s.resolveFamily("vdpactl-no-such-family"));
            assertEquals(Errno.EINVAL, tooLong.errno());
            assertEquals("Attribute failed policy validation", tooLong.extackMessage());
            assertEquals(NLMSG_HDRLEN + GENL_HDRLEN, tooLong.offset());
            assertEquals("nul-string length 0..15", tooLong.extack().policyDescription());
        }
    }
}
