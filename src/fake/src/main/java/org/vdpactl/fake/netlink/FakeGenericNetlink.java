package org.vdpactl.fake.netlink;

import static org.vdpactl.ffi.gen.netlink.netlink_h.*;

import org.vdpactl.abi.KernelProfile;
import org.vdpactl.ffi.gen.netlink.nlmsgerr;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vdpactl.fake.errno.KernelError;
import org.vdpactl.fake.device.FakeVdpaBus;
import org.vdpactl.fake.fault.FaultInjector;
import org.vdpactl.sys.Errno;

/**
 * The NETLINK_GENERIC protocol of the fake kernel: the family registry (nlctrl at 16, vdpa at 19
 * by default), the port table, and the request path of {@code net/netlink/af_netlink.c} and
 * {@code genetlink.c} reproduced step by step:
 *
 * <ol>
 *   <li>netlink_rcv_skb: each message of a datagram in turn; a message whose nlmsg_len is below 16
 *       or beyond the datagram ends processing silently; non-requests and control types are only
 *       ACKed (if asked);</li>
 *   <li>genl_rcv_msg: unknown family id → ENOENT; a family that is not netns-aware, from another
 *       namespace → ENOENT; nlmsg_len below nlmsghdr + genlmsghdr → EINVAL;</li>
 *   <li>genl_header_check for commands from resv_start_op on: reserved ≠ 0 or flags other than
 *       REQUEST/ACK/ECHO(/DUMP) → EINVAL with Linux's texts;</li>
 *   <li>no handler for do/dump → EOPNOTSUPP; GENL_ADMIN_PERM without CAP_NET_ADMIN → EPERM;</li>
 *   <li>attribute validation (strict or liberal per op), the fault-injection hook, the handler;</li>
 *   <li>the ACK (NLMSG_ERROR) when asked or on error, shaped by the socket's CAP_ACK/EXT_ACK;
 *       a started dump answers with its messages and NLMSG_DONE instead.</li>
 * </ol>
 */
public final class FakeGenericNetlink {
    private static final Logger LOG = LoggerFactory.getLogger(FakeGenericNetlink.class);
    /** The vdpa family's id on a kernel booted with the vdpa bus built in (verified on 6.12). */
    public static final int DEFAULT_VDPA_FAMILY_ID = 19;
    /** What genl_family_rcv_msg returns for a dump it started (-EINTR: no ACK). */
    static final int DUMP_STARTED = -Errno.EINTR;
    private static final int FIRST_ROVER_PORT = -4097;

    private final Map<Integer, FakeGenlFamily> families = new TreeMap<>();
    private final Map<Integer, FakeNetlinkSocket> ports = new HashMap<>();
    private final FaultInjector faults;
    private final NlctrlFamily nlctrl;
    private final VdpaFamily vdpa;
    private final int vdpaId;
    private int rover = FIRST_ROVER_PORT;

    /** Generic netlink with the vdpa family as the given Linux version has it. */
    public FakeGenericNetlink(FakeVdpaBus bus, FaultInjector faults, int vdpaFamilyId,
                              KernelProfile kernel) {
        if (vdpaFamilyId <= GENL_ID_CTRL() || vdpaFamilyId > 0xFFFF) {
            throw new IllegalArgumentException("family id " + vdpaFamilyId + " is not a dynamic genl id");
        }
        this.faults = faults;
        this.nlctrl = new NlctrlFamily(this);
        this.vdpa = new VdpaFamily(bus, kernel);
        this.vdpaId = vdpaFamilyId;
        families.put(GENL_ID_CTRL(), nlctrl);
        families.put(vdpaFamilyId, vdpa);
    }

    /** Loads or unloads the vdpa module: while unloaded, GETFAMILY "vdpa" and requests to its id answer ENOENT. */
    public synchronized void setVdpaFamilyRegistered(boolean registered) {
        if (registered) {
            families.put(vdpaId, vdpa);
        } else {
            families.remove(vdpaId);
        }
    }

    /** Opens a NETLINK_GENERIC socket for {@code opener} (socket(2)). */
    public FakeNetlinkSocket openSocket(NetlinkCaller opener) {
        return new FakeNetlinkSocket(this, opener);
    }

    // ------------------------------------------------------------------ registry

    synchronized Optional<FakeGenlFamily> familyById(int id) {
        return Optional.ofNullable(families.get(id));
    }

    synchronized Optional<Map.Entry<Integer, FakeGenlFamily>> familyByName(String name) {
        return families.entrySet().stream().filter(e -> e.getValue().name().equals(name)).findFirst()
                .map(e -> Map.entry(e.getKey(), e.getValue()));
    }

    /** Registered families by id, in id order (what nlctrl's dump walks). */
    synchronized List<Map.Entry<Integer, FakeGenlFamily>> familyList() {
        return new ArrayList<>(families.entrySet());
    }

    // ------------------------------------------------------------------ ports

    /** netlink_autobind: the tgid first, then negative port ids. */
    synchronized int autobind(FakeNetlinkSocket s, int tgid) {
        int port = tgid;
        while (port == 0 || ports.containsKey(port)) {
            port = rover--;
        }
        ports.put(port, s);
        return port;
    }

    /** bind(2) to an explicit port: EADDRINUSE when taken. */
    synchronized void bindPort(FakeNetlinkSocket s, int port) {
        FakeNetlinkSocket other = ports.get(port);
        if (other != null && other != s) {
            throw KernelError.of(98, "netlink port " + Integer.toUnsignedString(port) + " is in use"); // EADDRINUSE
        }
        ports.put(port, s);
    }

    synchronized void releasePort(int port, FakeNetlinkSocket s) {
        ports.remove(port, s);
    }

    // ------------------------------------------------------------------ request path

    /** netlink_rcv_skb over one datagram a user socket sent to the kernel. */
    void receive(FakeNetlinkSocket from, NetlinkCaller caller, boolean explicitDestination, byte[] data) {
        int off = 0;
        while (data.length - off >= NLMSG_HDRLEN()) {
            NlMsgHeader h = NlMsgHeader.read(data, off);
            long len = h.unsignedLength();
            if (len < NLMSG_HDRLEN() || data.length - off < len) {
                LOG.debug("dropping message with nlmsg_len {} ({} bytes left)", len, data.length - off);
                return;
            }
            Extack extack = new Extack();
            int err = 0;
            if ((h.flags() & NLM_F_REQUEST()) != 0 && h.type() >= NLMSG_MIN_TYPE()) {
                err = genlReceive(from, caller, explicitDestination, data, off, h, extack);
            }
            if (err != DUMP_STARTED && ((h.flags() & NLM_F_ACK()) != 0 || err != 0)) {
                from.enqueue(ack(from, data, off, h, err, extack));
            }
            off += Math.min(SkBuff.nlmsgAlign((int) len), data.length - off);
        }
    }

    private int genlReceive(FakeNetlinkSocket from, NetlinkCaller caller, boolean explicitDst, byte[] data, int off,
                            NlMsgHeader h, Extack extack) {
        Optional<FakeGenlFamily> fam = familyById(h.type());
        if (fam.isEmpty()) {
            return -Errno.ENOENT;
        }
        FakeGenlFamily family = fam.get();
        if (!family.netnsOk() && !from.openedInInitialNetns()) {
            return -Errno.ENOENT;
        }
        int hdrlen = (int) GENL_HDRLEN() + family.headerSize();
        if (h.unsignedLength() < NLMSG_HDRLEN() + hdrlen) {
            return -Errno.EINVAL;
        }
        GenlMsgHeader genl = GenlMsgHeader.read(data, off + NLMSG_HDRLEN());
        if (genl.cmd() >= family.resvStartOp()) {
            if (genl.reserved() != 0) {
                extack.message("genlmsghdr.reserved field is not 0");
                return -Errno.EINVAL;
            }
            int flags = h.flags();
            if ((flags & NLM_F_DUMP()) == NLM_F_DUMP()) {
                flags &= ~NLM_F_DUMP();
            }
            if ((flags & ~(NLM_F_REQUEST() | NLM_F_ACK() | NLM_F_ECHO())) != 0) {
                extack.message("ambiguous or reserved bits set in nlmsg_flags");
                return -Errno.EINVAL;
            }
        }
        boolean dump = (h.flags() & NLM_F_DUMP()) == NLM_F_DUMP();
        Optional<FakeGenlFamily.Op> op = family.op(genl.cmd(), dump);
        if (op.isEmpty()) {
            return -Errno.EOPNOTSUPP;
        }
        if (op.get().adminPerm() && !(caller.hasCapNetAdmin() && (explicitDst || from.openerHadCapNetAdmin()))) {
            return -Errno.EPERM;
        }
        try {
            FakeGenlFamily.Op o = op.get();
            boolean strict = dump ? o.strictDump() : o.strictDo();
            RequestAttributes attrs = o.policy() == null ? RequestAttributes.none(data)
                    : RequestAttributes.parse(data, off, off + NLMSG_HDRLEN() + hdrlen, (int) h.unsignedLength() - NLMSG_HDRLEN() - hdrlen,
                            o.policy(), o.maxAttr(), strict, extack);
            GenlRequestContext ctx = new GenlRequestContext(caller, from.portId(), h, genl, attrs, extack,
                    from.openedInInitialNetns());
            injectFault(family, ctx);
            if (dump) {
                family.startDump(o, ctx);
                return from.startDump(h.type(), family, o, ctx) ? DUMP_STARTED : -Errno.EBUSY;
            }
            doit(from, h.type(), family, o, ctx);
            return 0;
        } catch (KernelError e) {
            if (e.extack() != null) {
                extack.message(e.extack());
            }
            LOG.debug("{} cmd {} failed: {} ({})", family.name(), genl.cmd(), Errno.name(e.errno()), e.getMessage());
            return -e.errno();
        }
    }

    private void injectFault(FakeGenlFamily family, GenlRequestContext ctx) {
        String call = family.faultCallName(ctx.genl().cmd());
        if (faults != null && call != null) {
            faults.hit(family.faultDevice(ctx), call, null);
        }
    }

    /** Runs a do handler; each reply becomes one datagram, queued before the ACK. */
    private void doit(FakeNetlinkSocket to, int familyId, FakeGenlFamily family, FakeGenlFamily.Op op, GenlRequestContext ctx) {
        List<SkBuff> replies = new ArrayList<>(1);
        op.doit().handle(ctx, cmd -> {
            SkBuff w = new SkBuff(256);
            w.beginMessage(familyId, 0, ctx.seq(), ctx.portId()).genlHeader(cmd, family.version());
            replies.add(w);
            return w;
        });
        for (SkBuff w : replies) {
            w.endMessage();
            to.enqueue(w.toByteArray());
        }
    }

    /** netlink_ack. */
    private static byte[] ack(FakeNetlinkSocket to, byte[] data, int off, NlMsgHeader h, int err, Extack extack) {
        boolean capped = err == 0 || to.capAck();
        int payloadLen = (int) h.unsignedLength() - NLMSG_HDRLEN();
        SkBuff tlvs = new SkBuff(128);
        boolean haveTlvs = to.extAck() && extack.writeTlvs(tlvs, err != 0);
        int flags = (capped ? NLM_F_CAPPED() : 0) | (haveTlvs ? NLM_F_ACK_TLVS() : 0);
        SkBuff w = new SkBuff(NLMSG_HDRLEN() + (int) nlmsgerr.sizeof() + (capped ? 0 : payloadLen) + tlvs.size() + 8);
        w.beginMessage(NLMSG_ERROR(), flags, h.seq(), to.portId());
        w.putRaw(le32(err));
        w.putRaw(Arrays.copyOfRange(data, off, off + NLMSG_HDRLEN()));
        if (!capped) {
            w.putRaw(Arrays.copyOfRange(data, off + NLMSG_HDRLEN(), off + NLMSG_HDRLEN() + payloadLen));
            w.alignTo(NLMSG_ALIGNTO());
        }
        if (haveTlvs) {
            w.putRaw(tlvs.toByteArray());
        }
        w.endMessage();
        return w.toByteArray();
    }

    static byte[] le32(int v) {
        return new byte[] {(byte) v, (byte) (v >> 8), (byte) (v >> 16), (byte) (v >> 24)};
    }
}
