package org.vdpactl.netlink;

import static org.vdpactl.netlink.NetlinkAbi.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vdpactl.abi.UapiGenlCtrlAttribute;
import org.vdpactl.ffi.gen.netlink.sockaddr_nl;
import org.vdpactl.netlink.NetlinkMessage.DoneMessage;
import org.vdpactl.netlink.NetlinkMessage.ErrorMessage;
import org.vdpactl.netlink.NetlinkMessage.GenlMessage;
import org.vdpactl.sys.Errno;
import org.vdpactl.sys.SyscallException;
import org.vdpactl.sys.Syscalls;

/**
 * A NETLINK_GENERIC socket over the {@link Syscalls} seam: request/ACK exchanges, dumps that span
 * many datagrams, and family resolution through nlctrl.
 *
 * <p>Every wait for the kernel goes through {@code poll} with a timeout, so a kernel that never
 * answers (or a fake that dropped a malformed message, as Linux does) ends in a
 * {@link NetlinkTimeoutException} instead of a hung CLI. Datagrams are never truncated: each
 * receive first peeks with {@code MSG_PEEK|MSG_TRUNC} to learn the real size and grows the buffer
 * when needed (the kernel would otherwise drop the rest of the datagram). The receive buffer
 * starts at 32 KiB, the size from which Linux builds full-size dump datagrams.
 *
 * <p>Buffers and the kernel address are allocated once per socket and reused. One request runs at
 * a time; concurrent callers wait for each other.
 */
public final class GenlSocket implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(GenlSocket.class);

    /** Default wait for each answer of the kernel. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);
    /** Receive buffer size: Linux sizes later dump datagrams by the largest recv buffer, capped near 32 KiB. */
    public static final int DEFAULT_RECEIVE_BUFFER = 32 * 1024;

    /** Socket options. */
    public record Options(Duration timeout, int receiveBufferSize, boolean extAck, boolean capAck) {
        public static final Options DEFAULT = new Options(DEFAULT_TIMEOUT, DEFAULT_RECEIVE_BUFFER, true, true);

        public Options withTimeout(Duration t) {
            return new Options(t, receiveBufferSize, extAck, capAck);
        }

        public Options withReceiveBufferSize(int size) {
            return new Options(timeout, size, extAck, capAck);
        }

        public Options withExtAck(boolean on) {
            return new Options(timeout, receiveBufferSize, on, capAck);
        }

        public Options withCapAck(boolean on) {
            return new Options(timeout, receiveBufferSize, extAck, on);
        }
    }

    private final Syscalls sys;
    private final int fd;
    private final Options options;
    private final int portId;
    private final ReentrantLock lock = new ReentrantLock();
    private final Arena addrArena = Arena.ofShared();
    private final MemorySegment kernelAddr;
    private final MessageWriter writer = new MessageWriter(1024);
    private NativeBuffer sendBuf;
    private NativeBuffer recvBuf;
    private int seq;
    private boolean closed;

    private GenlSocket(Syscalls sys, int fd, Options options) {
        this.sys = sys;
        this.fd = fd;
        this.options = options;
        this.kernelAddr = sockaddr_nl.allocate(addrArena);
        sockaddr_nl.nl_family(kernelAddr, (short) AF_NETLINK);
        this.sendBuf = new NativeBuffer(1024);
        this.recvBuf = new NativeBuffer(Math.max(4096, options.receiveBufferSize()));
        try {
            this.portId = bindAndLearnPortId(options);
        } catch (RuntimeException e) {
            sendBuf.close();
            recvBuf.close();
            addrArena.close();
            throw e;
        }
    }

    /** Opens a socket with the default options (5 s timeout, 32 KiB buffer, EXT_ACK and CAP_ACK on). */
    public static GenlSocket open(Syscalls sys) {
        return open(sys, Options.DEFAULT);
    }

    public static GenlSocket open(Syscalls sys, Options options) {
        int fd = sys.socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
        try {
            return new GenlSocket(sys, fd, options);
        } catch (RuntimeException e) {
            try {
                sys.close(fd);
            } catch (SyscallException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    private int bindAndLearnPortId(Options opts) {
        setOption(NETLINK_EXT_ACK, opts.extAck(), "NETLINK_EXT_ACK");
        setOption(NETLINK_CAP_ACK, opts.capAck(), "NETLINK_CAP_ACK");
        // shared, not confined: a seam may run the call on another thread
        try (Arena arena = Arena.ofShared()) {
            MemorySegment addr = sockaddr_nl.allocate(arena);
            sockaddr_nl.nl_family(addr, (short) AF_NETLINK);
            sys.bind(fd, addr);
            MemorySegment bound = sockaddr_nl.allocate(arena);
            sys.getsockname(fd, bound);
            return sockaddr_nl.nl_pid(bound);
        }
    }

    private void setOption(int name, boolean on, String label) {
        if (!on) {
            return;
        }
        try {
            sys.setsockopt(fd, SOL_NETLINK, name, 1);
        } catch (SyscallException e) {
            // kernels before 4.12 lack EXT_ACK; errors then simply carry no text
            LOG.debug("setsockopt {} failed: {}", label, e.getMessage());
        }
    }

    /** The file descriptor (for tests that talk to the socket directly). */
    public int fd() {
        return fd;
    }

    /** The port id the kernel bound this socket to (nlmsg_pid of every answer). */
    public int portId() {
        return portId;
    }

    public Options options() {
        return options;
    }

    /** The next sequence number; each request uses a fresh one. */
    public int nextSeq() {
        lock.lock();
        try {
            return ++seq;
        } finally {
            lock.unlock();
        }
    }

    /** Resolves a family by name (CTRL_CMD_GETFAMILY); ENOENT when the kernel has no such family. */
    public GenlFamily resolveFamily(String name) {
        GenlRequest req = GenlRequest.of("CTRL_CMD_GETFAMILY " + name, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 1,
                w -> w.putString(UapiGenlCtrlAttribute.CTRL_ATTR_FAMILY_NAME, name));
        return GenlFamily.parse(doit(req).single().attributes());
    }

    /**
     * Sends a do-request with NLM_F_ACK and returns the reply messages once the ACK arrived.
     * An NLMSG_ERROR with a negative errno becomes a {@link NetlinkException}.
     */
    public GenlReply doit(GenlRequest req) {
        lock.lock();
        try {
            int s = sendRequest(req, NLM_F_REQUEST | NLM_F_ACK);
            List<GenlMessage> replies = new ArrayList<>(1);
            while (true) {
                for (NetlinkMessage m : receiveFor(req, s)) {
                    switch (m) {
                        case GenlMessage g -> replies.add(g);
                        case ErrorMessage e when e.isAck() -> {
                            return new GenlReply(replies, Optional.ofNullable(e.extack().message()));
                        }
                        case ErrorMessage e -> throw new NetlinkException(req.operation(), e.errno(), e.extack());
                        case DoneMessage d -> {
                            return new GenlReply(replies, Optional.ofNullable(d.extack().message()));
                        }
                        default -> LOG.debug("{}: ignoring {}", req.operation(), m);
                    }
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /** Sends a dump request (NLM_F_DUMP) and collects every NLM_F_MULTI message until NLMSG_DONE. */
    public List<GenlMessage> dump(GenlRequest req) {
        List<GenlMessage> out = new ArrayList<>();
        dump(req, out::add);
        return out;
    }

    /** Streams a dump: {@code sink} sees each message as its datagram arrives. */
    public void dump(GenlRequest req, Consumer<GenlMessage> sink) {
        lock.lock();
        try {
            int s = sendRequest(req, NLM_F_REQUEST | NLM_F_DUMP);
            while (true) {
                for (NetlinkMessage m : receiveFor(req, s)) {
                    switch (m) {
                        case GenlMessage g -> {
                            if ((g.header().flags() & NLM_F_DUMP_INTR) != 0) {
                                LOG.debug("{}: dump was interrupted by a concurrent change", req.operation());
                            }
                            sink.accept(g);
                        }
                        case DoneMessage d -> {
                            if (d.status() < 0) {
                                throw new NetlinkException(req.operation(), -d.status(), d.extack());
                            }
                            return;
                        }
                        case ErrorMessage e when e.isAck() -> LOG.debug("{}: ACK inside a dump", req.operation());
                        case ErrorMessage e -> throw new NetlinkException(req.operation(), e.errno(), e.extack());
                        default -> LOG.debug("{}: ignoring {}", req.operation(), m);
                    }
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Sends bytes exactly as given (a hand-built, possibly malformed message) and returns the
     * number of bytes the kernel took. For conformance tests; requests normally go through
     * {@link #doit} and {@link #dump}.
     */
    public long sendRaw(byte[] message) {
        lock.lock();
        try {
            return send(MemorySegment.ofArray(message), "sendto raw");
        } finally {
            lock.unlock();
        }
    }

    /** Receives one whole datagram (waiting at most {@code timeout}). */
    public byte[] receiveRaw(Duration timeout) {
        lock.lock();
        try {
            return receiveDatagram("recvfrom", timeout).toArray(ValueLayout.JAVA_BYTE);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Sends a raw request and collects the answers carrying {@code seq} until the exchange is
     * complete: an NLMSG_ERROR (error or ACK) or an NLMSG_DONE. Messages of other sequence numbers
     * are dropped.
     */
    public List<NetlinkMessage> exchangeRaw(byte[] message, int seq, Duration timeout) {
        lock.lock();
        try {
            send(MemorySegment.ofArray(message), "sendto raw");
            List<NetlinkMessage> out = new ArrayList<>();
            while (true) {
                for (NetlinkMessage m : NetlinkDecoder.decode(receiveDatagram("recvfrom", timeout))) {
                    if (m.header().seq() != seq) {
                        continue;
                    }
                    out.add(m);
                    if (m instanceof ErrorMessage || m instanceof DoneMessage) {
                        return out;
                    }
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /** Encodes the request with a fresh sequence number and sends it; returns that number. */
    private int sendRequest(GenlRequest req, int flags) {
        int s = ++seq;
        writer.reset().beginMessage(req.familyId(), flags, s, 0).genlHeader(req.cmd(), req.version());
        if (req.attributes() != null) {
            req.attributes().accept(writer);
        }
        writer.endMessage();
        send(writer.segment(), req.operation());
        return s;
    }

    private long send(MemorySegment message, String operation) {
        int len = Math.toIntExact(message.byteSize());
        sendBuf = sendBuf.ensure(len);
        MemorySegment out = sendBuf.segment().asSlice(0, len);
        MemorySegment.copy(message, 0, out, 0, len);
        try {
            return sys.sendto(fd, out, 0, kernelAddr);
        } catch (NetlinkException e) {
            throw e;
        } catch (SyscallException e) {
            throw new NetlinkException(operation, e.errno(), ExtAck.NONE, "sendto failed", e);
        }
    }

    /** The decoded messages of the next datagram, without those of other sequence numbers. */
    private List<NetlinkMessage> receiveFor(GenlRequest req, int s) {
        Duration timeout = req.timeout() == null ? options.timeout() : req.timeout();
        List<NetlinkMessage> all = NetlinkDecoder.decode(receiveDatagram(req.operation(), timeout));
        List<NetlinkMessage> mine = new ArrayList<>(all.size());
        for (NetlinkMessage m : all) {
            if (m.header().seq() == s) {
                mine.add(m);
            } else {
                // an answer to an earlier request that timed out
                LOG.debug("{}: dropping stale message seq {} (waiting for {})", req.operation(),
                        Integer.toUnsignedString(m.header().seq()), Integer.toUnsignedString(s));
            }
        }
        return mine;
    }

    /** Waits for and reads one datagram, growing the buffer so nothing is truncated. */
    private MemorySegment receiveDatagram(String operation, Duration timeout) {
        ensureOpen();
        int waitMillis = timeout.isNegative() ? -1 : (int) Math.min(Integer.MAX_VALUE, timeout.toMillis());
        try {
            while (true) {
                int revents = sys.poll(fd, POLLIN, waitMillis);
                if (revents == 0) {
                    throw new NetlinkTimeoutException(operation, timeout);
                }
                long size = sys.recvfrom(fd, recvBuf.segment(), MSG_PEEK | MSG_TRUNC);
                if (size > recvBuf.segment().byteSize()) {
                    recvBuf = recvBuf.ensure(Math.toIntExact(size));
                }
                long n = sys.recvfrom(fd, recvBuf.segment(), 0);
                return recvBuf.segment().asSlice(0, n);
            }
        } catch (NetlinkException e) {
            throw e;
        } catch (SyscallException e) {
            throw new NetlinkException(operation, e.errno(), ExtAck.NONE,
                    e.errno() == Errno.ENOBUFS ? "the socket's receive queue overflowed" : "recvfrom failed", e);
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("netlink socket is closed");
        }
    }

    @Override
    public void close() {
        lock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            try {
                sys.close(fd);
            } finally {
                sendBuf.close();
                recvBuf.close();
                addrArena.close();
            }
        } finally {
            lock.unlock();
        }
    }

    /** A native buffer with its own arena, replaced (not resized) when it must grow. */
    private static final class NativeBuffer implements AutoCloseable {
        private final Arena arena;
        private final MemorySegment segment;

        NativeBuffer(int size) {
            this.arena = Arena.ofShared();
            this.segment = arena.allocate(size, 8);
        }

        MemorySegment segment() {
            return segment;
        }

        NativeBuffer ensure(int size) {
            if (size <= segment.byteSize()) {
                return this;
            }
            long grown = Math.max(size, segment.byteSize() * 2);
            NativeBuffer b = new NativeBuffer(Math.toIntExact(Math.min(grown, Integer.MAX_VALUE - 8)));
            close();
            return b;
        }

        @Override
        public void close() {
            arena.close();
        }
    }
}
