package org.vdpactl.netlink;

import static org.vdpactl.abi.UapiGenlCtrlAttribute.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.vdpactl.netlink.NetlinkAbi.*;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;
import org.vdpactl.ffi.gen.netlink.sockaddr_nl;
import org.vdpactl.netlink.NetlinkMessage.GenlMessage;
import org.vdpactl.sys.Errno;
import org.vdpactl.sys.PanamaSyscalls;
import org.vdpactl.sys.SyscallException;
import org.vdpactl.sys.UnscriptedSyscalls;

class GenlSocketTest {

    // --- against this machine's own kernel: nlctrl exists everywhere ---

    @Test
    void resolvesNlctrlOnTheRealKernel() {
        try (GenlSocket s = GenlSocket.open(new PanamaSyscalls())) {
            GenlFamily f = s.resolveFamily("nlctrl");
            assertEquals(GENL_ID_CTRL, f.id());
            assertEquals(2, f.version());
            GenlFamily.Op getFamily = f.op(CTRL_CMD_GETFAMILY).orElseThrow();
            assertTrue(getFamily.canDo() && getFamily.canDump());
            assertTrue(f.groups().stream().anyMatch(g -> g.name().equals("notify")));
            assertTrue(s.portId() != 0);
        }
    }

    @Test
    void unknownFamilyIsEnoentOnTheRealKernel() {
        try (GenlSocket s = GenlSocket.open(new PanamaSyscalls())) {
            NetlinkException e = assertThrows(NetlinkException.class, () -> s.resolveFamily("vdpactl-nofam"));
            assertEquals(Errno.ENOENT, e.errno());
            assertTrue(e.getMessage().startsWith("CTRL_CMD_GETFAMILY vdpactl-nofam: ENOENT"), e.getMessage());
        }
    }

    @Test
    void aFamilyNameLongerThanGenlNamsizFailsPolicyValidationOnTheRealKernel() {
        // CTRL_ATTR_FAMILY_NAME is NLA_NUL_STRING of at most 15 characters: no NUL in the first 16 bytes is EINVAL
        try (GenlSocket s = GenlSocket.open(new PanamaSyscalls())) {
            NetlinkException e = assertThrows(NetlinkException.class, () -> s.resolveFamily("vdpactl-no-such-family"));
            assertEquals(Errno.EINVAL, e.errno());
            assertEquals("Attribute failed policy validation", e.extackMessage());
            assertEquals(NLMSG_HDRLEN + GENL_HDRLEN, e.offset());
            assertEquals("nul-string length 0..15", e.extack().policyDescription());
        }
    }

    @Test
    void familyDumpOnTheRealKernelEndsWithDone() {
        try (GenlSocket s = GenlSocket.open(new PanamaSyscalls())) {
            List<GenlMessage> all = s.dump(GenlRequest.of("CTRL_CMD_GETFAMILY dump", GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 1, null));
            assertTrue(all.stream().anyMatch(m -> m.attributes().string(CTRL_ATTR_FAMILY_NAME).equals("nlctrl")));
            assertTrue(all.stream().allMatch(m -> (m.header().flags() & NLM_F_MULTI) != 0));
            // the socket is usable again after the dump
            assertEquals(GENL_ID_CTRL, s.resolveFamily("nlctrl").id());
        }
    }

    // --- against a scripted peer ---

    @Test
    void setsExtAckAndCapAckAndBindsForAPortId() {
        ScriptedPeer peer = new ScriptedPeer(seq -> List.of());
        try (GenlSocket s = GenlSocket.open(peer)) {
            assertEquals(4242, s.portId());
        }
        assertEquals(List.of(NETLINK_EXT_ACK, NETLINK_CAP_ACK), peer.options);
        assertEquals(List.of(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC), peer.socketArgs);
        assertTrue(peer.closed);
    }

    @Test
    void theFdIsClosedWhenBindFails() {
        ScriptedPeer peer = new ScriptedPeer(seq -> List.of()) {
            @Override
            public void bind(int fd, MemorySegment addr) {
                throw new SyscallException("bind", Errno.EPERM);
            }
        };
        assertThrows(SyscallException.class, () -> GenlSocket.open(peer));
        assertTrue(peer.closed);
    }

    @Test
    void aSilentKernelEndsInATimeoutNotAHang() {
        ScriptedPeer peer = new ScriptedPeer(seq -> List.of());
        try (GenlSocket s = GenlSocket.open(peer, GenlSocket.Options.DEFAULT.withTimeout(Duration.ofMillis(1234)))) {
            NetlinkTimeoutException e = assertThrows(NetlinkTimeoutException.class,
                    () -> s.doit(GenlRequest.of("VDPA_CMD_DEV_GET vdpa0", 19, 5, 1, w -> w.putString(4, "vdpa0"))));
            assertEquals(Errno.ETIMEDOUT, e.errno());
            assertEquals(List.of(1234), peer.pollTimeouts);
            assertTrue(e.getMessage().contains("1234 ms"), e.getMessage());
        }
    }

    @Test
    void aDatagramLargerThanTheBufferIsPeekedAndReadWhole() {
        // a doit reply of 40000 bytes: bigger than the 32 KiB buffer; MSG_TRUNC would lose the rest
        ScriptedPeer peer = new ScriptedPeer(seq -> List.of(reply(seq, 40_000), ack(seq)));
        try (GenlSocket s = GenlSocket.open(peer)) {
            GenlReply r = s.doit(GenlRequest.of("big", 19, 6, 1, null));
            assertEquals(40_000 - 24, r.single().attributes().require(1).length());
            assertTrue(peer.peeks >= 1);
            assertFalse(peer.truncatedReads, "no datagram was ever read into a too small buffer");
        }
    }

    @Test
    void staleAnswersOfEarlierRequestsAreDropped() {
        ScriptedPeer peer = new ScriptedPeer(seq -> List.of(concat(reply(seq - 1, 64), ack(seq - 1)), reply(seq, 64), ack(seq)));
        try (GenlSocket s = GenlSocket.open(peer)) {
            GenlReply r = s.doit(GenlRequest.of("x", 19, 5, 1, null));
            assertEquals(1, r.messages().size());
            assertEquals(peer.lastSeq, r.single().header().seq());
        }
    }

    @Test
    void aDumpSpanningManyDatagramsIsCollectedUntilDone() {
        ScriptedPeer peer = new ScriptedPeer(seq -> {
            List<byte[]> out = new ArrayList<>();
            for (int d = 0; d < 5; d++) {
                MessageWriter w = new MessageWriter();
                for (int i = 0; i < 10; i++) {
                    w.beginMessage(19, NLM_F_MULTI, seq, 4242).genlHeader(3, 1).putString(4, "vdpa" + (d * 10 + i));
                    w.endMessage();
                }
                out.add(w.toByteArray());
            }
            MessageWriter done = new MessageWriter();
            done.beginMessage(NLMSG_DONE, NLM_F_MULTI, seq, 4242).putRaw(new byte[4]);
            done.endMessage();
            out.add(done.toByteArray());
            return out;
        });
        try (GenlSocket s = GenlSocket.open(peer)) {
            List<GenlMessage> all = s.dump(GenlRequest.of("VDPA_CMD_DEV_GET dump", 19, 5, 1, null));
            assertEquals(50, all.size());
            assertEquals("vdpa49", all.getLast().attributes().string(4));
            assertEquals(NLM_F_REQUEST | NLM_F_DUMP, peer.lastFlags);
        }
    }

    @Test
    void anErrorAnswerBecomesANetlinkExceptionWithItsExtack() {
        ScriptedPeer peer = new ScriptedPeer(seq -> {
            MessageWriter w = new MessageWriter();
            w.beginMessage(NLMSG_ERROR, NLM_F_CAPPED | NLM_F_ACK_TLVS, seq, 4242).putRaw(new byte[] {-19, -1, -1, -1})
                    .putRaw(new byte[16]).putString(NLMSGERR_ATTR_MSG, "vdpa: device not found");
            w.endMessage();
            return List.of(w.toByteArray());
        });
        try (GenlSocket s = GenlSocket.open(peer)) {
            NetlinkException e = assertThrows(NetlinkException.class, () -> s.doit(GenlRequest.of("VDPA_CMD_DEV_DEL x", 19, 4, 1, null)));
            assertEquals(Errno.ENODEV, e.errno());
            assertEquals("vdpa: device not found", e.extackMessage());
        }
    }

    private static byte[] reply(int seq, int totalLength) {
        MessageWriter w = new MessageWriter();
        w.beginMessage(19, 0, seq, 4242).genlHeader(6, 1).putAttribute(1, new byte[totalLength - 24]);
        w.endMessage();
        return w.toByteArray();
    }

    private static byte[] ack(int seq) {
        MessageWriter w = new MessageWriter();
        w.beginMessage(NLMSG_ERROR, NLM_F_CAPPED, seq, 4242).putRaw(new byte[20]);
        w.endMessage();
        return w.toByteArray();
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] c = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }

    /** One socket whose peer answers each request with scripted datagrams. */
    static class ScriptedPeer extends UnscriptedSyscalls {
        final IntFunction<List<byte[]>> answers;
        final Deque<byte[]> queue = new ArrayDeque<>();
        final List<Integer> options = new ArrayList<>();
        final List<Integer> socketArgs = new ArrayList<>();
        final List<Integer> pollTimeouts = new ArrayList<>();
        boolean closed;
        int peeks;
        boolean truncatedReads;
        int lastSeq;
        int lastFlags;

        ScriptedPeer(IntFunction<List<byte[]>> answers) {
            this.answers = answers;
        }

        @Override public int socket(int domain, int type, int protocol) {
            socketArgs.addAll(List.of(domain, type, protocol));
            return 7;
        }

        @Override public void setsockopt(int fd, int level, int name, int value) {
            assertEquals(SOL_NETLINK, level);
            options.add(name);
        }

        @Override public void bind(int fd, MemorySegment addr) {
            assertEquals(AF_NETLINK, sockaddr_nl.nl_family(addr));
        }

        @Override public int getsockname(int fd, MemorySegment addr) {
            sockaddr_nl.nl_family(addr, (short) AF_NETLINK);
            sockaddr_nl.nl_pid(addr, 4242);
            return (int) sockaddr_nl.sizeof();
        }

        @Override public long sendto(int fd, MemorySegment buf, int flags, MemorySegment addr) {
            NetlinkHeader h = NetlinkHeader.read(buf, 0);
            lastSeq = h.seq();
            lastFlags = h.flags();
            queue.addAll(answers.apply(h.seq()));
            return buf.byteSize();
        }

        @Override public int poll(int fd, int events, int timeoutMillis) {
            pollTimeouts.add(timeoutMillis);
            return queue.isEmpty() ? 0 : POLLIN;
        }

        @Override public long recvfrom(int fd, MemorySegment buf, int flags) {
            byte[] d = (flags & MSG_PEEK) != 0 ? queue.peekFirst() : queue.pollFirst();
            if ((flags & MSG_PEEK) != 0) {
                peeks++;
            } else if (d.length > buf.byteSize()) {
                truncatedReads = true;
            }
            int n = (int) Math.min(d.length, buf.byteSize());
            MemorySegment.copy(d, 0, buf, ValueLayout.JAVA_BYTE, 0, n);
            return (flags & MSG_TRUNC) != 0 ? d.length : n;
        }

        @Override public void close(int fd) {
            closed = true;
        }
    }
}
