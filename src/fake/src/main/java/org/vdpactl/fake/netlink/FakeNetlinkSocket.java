package org.vdpactl.fake.netlink;

import static org.vdpactl.ffi.gen.netlink.netlink_h.*;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vdpactl.fake.vfs.Waiting;
import org.vdpactl.fake.errno.KernelError;
import org.vdpactl.ffi.gen.libc.libc_h;
import org.vdpactl.ffi.gen.netlink.sockaddr_nl;
import org.vdpactl.sys.Errno;

/**
 * One NETLINK_GENERIC socket of the fake kernel: port binding, socket options, the receive queue
 * of whole datagrams, and the dump machinery of {@code netlink_dump}, including Linux's datagram
 * sizing: a dump datagram holds at most {@code max(NLMSG_GOODSIZE, largest recv buffer so far)}
 * bytes, capped at {@code SKB_WITH_OVERHEAD(32768)}; the first one is built while the request is
 * sent, each further one when the previous one is received; NLMSG_DONE follows in a datagram of
 * its own when the dump callback reported data on its last call. A receive into a buffer smaller
 * than the datagram copies what fits, flags MSG_TRUNC and drops the rest.
 *
 * <p>Failures are {@link KernelError}s; the fake process turns them into syscall errors.
 */
public final class FakeNetlinkSocket {
    private static final Logger LOG = LoggerFactory.getLogger(FakeNetlinkSocket.class);
    /** NLMSG_GOODSIZE on x86_64: SKB_WITH_OVERHEAD(4096) = 4096 - 320. */
    public static final int NLMSG_GOODSIZE = 3776;
    /** The cap of max_recvmsg_len: SKB_WITH_OVERHEAD(32768). */
    public static final int MAX_RECVMSG_LEN = 32448;
    /** net.core.rmem_default / wmem_default. */
    static final int DEFAULT_BUF = 212992;
    private static final int ENODATA = 61;
    private static final int ENOPROTOOPT = 92;
    private static final int ECONNREFUSED = 111;
    private static final int SOCKADDR_NL_SIZE = (int) sockaddr_nl.sizeof();

    private final FakeGenericNetlink kernel;
    private final boolean openerCapNetAdmin;
    private final boolean openerInitialNetns;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final Deque<byte[]> queue = new ArrayDeque<>();
    private long queuedBytes;
    private volatile int portId;
    private volatile boolean bound;
    private volatile boolean extAck;
    private volatile boolean capAck;
    private volatile int maxRecvmsgLen;
    private volatile int rcvbuf = DEFAULT_BUF;
    private volatile boolean closed;

    /** nl_cb_mutex: one dump at a time per socket. */
    private final ReentrantLock dumpLock = new ReentrantLock();
    private RunningDump dump;

    private static final class RunningDump {
        final int familyId;
        final FakeGenlFamily family;
        final FakeGenlFamily.Op op;
        final GenlRequestContext request;
        final long[] cursor = new long[6];
        int doneErrno = Integer.MAX_VALUE;

        RunningDump(int familyId, FakeGenlFamily family, FakeGenlFamily.Op op, GenlRequestContext request) {
            this.familyId = familyId;
            this.family = family;
            this.op = op;
            this.request = request;
        }
    }

    FakeNetlinkSocket(FakeGenericNetlink kernel, NetlinkCaller opener) {
        this.kernel = kernel;
        this.openerCapNetAdmin = opener.hasCapNetAdmin();
        this.openerInitialNetns = opener.inInitialNetNamespace();
    }

    // ------------------------------------------------------------------ socket calls

    /** bind(2) with a sockaddr_nl. */
    public void bind(NetlinkCaller caller, MemorySegment addr) {
        int pid = checkAddress(addr);
        if (bound) {
            if (pid != portId) {
                throw KernelError.of(Errno.EINVAL, "socket already bound to " + Integer.toUnsignedString(portId));
            }
            return;
        }
        if (pid == 0) {
            portId = kernel.autobind(this, caller.tgid());
        } else {
            kernel.bindPort(this, pid);
            portId = pid;
        }
        bound = true;
    }

    /** getsockname(2): AF_NETLINK, the port id (0 while unbound), no groups. */
    public int getsockname(MemorySegment addr) {
        if (addr.equals(MemorySegment.NULL) || addr.byteSize() < SOCKADDR_NL_SIZE) {
            throw KernelError.of(Errno.EFAULT, "sockaddr buffer of " + addr.byteSize() + " bytes");
        }
        sockaddr_nl.nl_family(addr, (short) libc_h.AF_NETLINK());
        sockaddr_nl.nl_pad(addr, (short) 0);
        sockaddr_nl.nl_pid(addr, portId);
        sockaddr_nl.nl_groups(addr, 0);
        return SOCKADDR_NL_SIZE;
    }

    /** setsockopt(2): the netlink options vdpactl and iproute2 use, and SO_RCVBUF/SO_SNDBUF. */
    public void setsockopt(int level, int name, int value) {
        if (level == SOL_NETLINK()) {
            if (name == NETLINK_EXT_ACK()) {
                extAck = value != 0;
            } else if (name == NETLINK_CAP_ACK()) {
                capAck = value != 0;
            } else if (name < 1 || name > 12) {
                throw KernelError.of(ENOPROTOOPT, "netlink option " + name);
            }
            return;
        }
        if (level == libc_h.SOL_SOCKET()) {
            if (name == libc_h.SO_RCVBUF() || name == libc_h.SO_RCVBUFFORCE()) {
                rcvbuf = Math.max(2304, Math.min(value, DEFAULT_BUF) * 2);
            }
            return;
        }
        throw KernelError.of(ENOPROTOOPT, "option level " + level);
    }

    /** sendto(2): the kernel processes the datagram before this returns (replies are then queued). */
    public long sendto(NetlinkCaller caller, MemorySegment buf, int flags, MemorySegment addr) {
        if ((flags & 1) != 0) { // MSG_OOB
            throw KernelError.of(Errno.EOPNOTSUPP, "MSG_OOB on netlink");
        }
        if (buf.equals(MemorySegment.NULL)) {
            throw KernelError.of(Errno.EFAULT, "NULL buffer");
        }
        if (buf.byteSize() == 0) {
            throw KernelError.of(ENODATA, "zero-length netlink message");
        }
        boolean explicitDst = !addr.equals(MemorySegment.NULL) && addr.byteSize() > 0;
        if (explicitDst) {
            int pid = checkAddress(addr);
            int groups = sockaddr_nl.nl_groups(addr);
            if (pid != 0 || groups != 0) {
                if (!caller.hasCapNetAdmin()) {
                    throw KernelError.of(Errno.EPERM, "sending to a user port or group needs CAP_NET_ADMIN");
                }
                throw KernelError.of(ECONNREFUSED, "the fake delivers only to the kernel (port 0)");
            }
        }
        if (buf.byteSize() > DEFAULT_BUF - 32) {
            throw KernelError.of(Errno.EMSGSIZE, "message of " + buf.byteSize() + " bytes exceeds sndbuf");
        }
        if (!bound) {
            portId = kernel.autobind(this, caller.tgid());
            bound = true;
        }
        byte[] data = buf.toArray(ValueLayout.JAVA_BYTE);
        kernel.receive(this, caller, explicitDst, data);
        return data.length;
    }

    /**
     * recvfrom(2): one datagram. MSG_PEEK leaves it queued, MSG_TRUNC makes the call return its
     * real length. Blocks while the queue is empty unless {@code nonBlocking} or MSG_DONTWAIT.
     */
    public long recvfrom(NetlinkCaller caller, MemorySegment buf, int flags, boolean nonBlocking) {
        if ((flags & 1) != 0) {
            throw KernelError.of(Errno.EOPNOTSUPP, "MSG_OOB on netlink");
        }
        boolean peek = (flags & libc_h.MSG_PEEK()) != 0;
        byte[] d;
        lock.lock();
        try {
            boolean dontWait = nonBlocking || (flags & libc_h.MSG_DONTWAIT()) != 0;
            if (!Waiting.await(changed, () -> !queue.isEmpty() || closed, dontWait ? 0 : -1, caller.clock())) {
                throw KernelError.of(Errno.EAGAIN, "no datagram queued");
            }
            if (queue.isEmpty()) {
                throw KernelError.of(Errno.EBADF, "socket closed while waiting");
            }
            d = peek ? queue.peekFirst() : queue.pollFirst();
            if (!peek) {
                queuedBytes -= d.length;
            }
        } finally {
            lock.unlock();
        }
        long len = buf.byteSize();
        maxRecvmsgLen = (int) Math.min(Math.max(maxRecvmsgLen, len), MAX_RECVMSG_LEN);
        int copied = (int) Math.min(d.length, len);
        if (copied > 0) {
            if (buf.equals(MemorySegment.NULL)) {
                throw KernelError.of(Errno.EFAULT, "NULL buffer");
            }
            MemorySegment.copy(d, 0, buf, ValueLayout.JAVA_BYTE, 0, copied);
        }
        continueDump();
        return (flags & libc_h.MSG_TRUNC()) != 0 ? d.length : copied;
    }

    /** poll(2): POLLIN while a datagram is queued; a netlink socket is always writable. */
    public int poll(NetlinkCaller caller, int events, int timeoutMillis) {
        int interest = events | libc_h.POLLERR() | libc_h.POLLHUP();
        int writable = libc_h.POLLOUT();
        if ((interest & writable) != 0) {
            return (readable() ? libc_h.POLLIN() : 0) | writable;
        }
        lock.lock();
        try {
            boolean ready = Waiting.await(changed, () -> !queue.isEmpty() || closed, timeoutMillis, caller.clock());
            return ready && !queue.isEmpty() ? libc_h.POLLIN() & interest : 0;
        } finally {
            lock.unlock();
        }
    }

    /** The last reference went away: the port is released and queued data dropped. */
    public void close() {
        lock.lock();
        try {
            closed = true;
            queue.clear();
            queuedBytes = 0;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        dumpLock.lock();
        try {
            dump = null;
        } finally {
            dumpLock.unlock();
        }
        if (bound) {
            kernel.releasePort(portId, this);
        }
    }

    // ------------------------------------------------------------------ state for the kernel side

    public int portId() {
        return portId;
    }

    boolean extAck() {
        return extAck;
    }

    boolean capAck() {
        return capAck;
    }

    boolean openerHadCapNetAdmin() {
        return openerCapNetAdmin;
    }

    boolean openedInInitialNetns() {
        return openerInitialNetns;
    }

    /** Datagrams waiting to be received (for tests and diagnostics). */
    public int queuedDatagrams() {
        lock.lock();
        try {
            return queue.size();
        } finally {
            lock.unlock();
        }
    }

    /** The largest recv buffer seen so far, capped like Linux's max_recvmsg_len. */
    public int maxRecvmsgLen() {
        return maxRecvmsgLen;
    }

    private boolean readable() {
        lock.lock();
        try {
            return !queue.isEmpty();
        } finally {
            lock.unlock();
        }
    }

    void enqueue(byte[] datagram) {
        lock.lock();
        try {
            if (closed) {
                return;
            }
            queue.addLast(datagram);
            queuedBytes += datagram.length;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    // ------------------------------------------------------------------ dumps (netlink_dump)

    /** __netlink_dump_start: false (EBUSY) when a dump is already running on this socket. */
    boolean startDump(int familyId, FakeGenlFamily family, FakeGenlFamily.Op op, GenlRequestContext request) {
        dumpLock.lock();
        try {
            if (dump != null) {
                return false;
            }
            dump = new RunningDump(familyId, family, op, request);
            step();
            return true;
        } finally {
            dumpLock.unlock();
        }
    }

    private void continueDump() {
        dumpLock.lock();
        try {
            if (dump == null) {
                return;
            }
            long queued;
            lock.lock();
            try {
                queued = queuedBytes;
            } finally {
                lock.unlock();
            }
            if (queued <= rcvbuf / 2) {
                step();
            }
        } finally {
            dumpLock.unlock();
        }
    }

    /** One netlink_dump call: fills one datagram, or ends the dump with NLMSG_DONE. */
    private void step() {
        RunningDump d = dump;
        int capacity = Math.max(NLMSG_GOODSIZE, maxRecvmsgLen);
        SkBuff w = new SkBuff(Math.min(capacity, 4096));
        GenlRequestContext r = d.request;
        if (d.doneErrno > 0) {
            DumpWriter out = new DumpWriter(w, capacity, d.familyId, d.family.version(), r.seq(), r.portId());
            int status;
            try {
                status = d.op.dumpit().dump(r, d.cursor, out);
            } catch (KernelError e) {
                status = -e.errno();
            }
            if (status == -Errno.EMSGSIZE && w.size() > 0) {
                status = w.size();
            }
            d.doneErrno = status;
        }
        if (d.doneErrno > 0 || capacity - w.size() < NLMSG_HDRLEN() + Integer.BYTES) {
            enqueue(w.toByteArray());
            return;
        }
        w.beginMessage(NLMSG_DONE(), NLM_F_MULTI(), r.seq(), r.portId()).putRaw(FakeGenericNetlink.le32(d.doneErrno));
        w.endMessage();
        enqueue(w.toByteArray());
        LOG.debug("dump of {} cmd {} done ({})", d.family.name(), r.genl().cmd(), d.doneErrno);
        dump = null;
    }

    private static int checkAddress(MemorySegment addr) {
        if (addr.equals(MemorySegment.NULL) || addr.byteSize() < SOCKADDR_NL_SIZE) {
            throw KernelError.of(Errno.EINVAL, "sockaddr_nl of " + addr.byteSize() + " bytes");
        }
        if (sockaddr_nl.nl_family(addr) != libc_h.AF_NETLINK()) {
            throw KernelError.of(Errno.EINVAL, "address family " + sockaddr_nl.nl_family(addr));
        }
        return sockaddr_nl.nl_pid(addr);
    }
}
