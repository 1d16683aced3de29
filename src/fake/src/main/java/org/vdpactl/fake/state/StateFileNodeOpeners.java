package org.vdpactl.fake.state;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vdpactl.fake.errno.KernelError;
import org.vdpactl.fake.device.NodeOpeners;
import org.vdpactl.sys.Errno;

/**
 * The single-opener rule across the fake kernels that share one state file: each open is an
 * "opened by" record (pid, the pid's start time, and which kernel of that JVM) in the file, written
 * under the state lock.
 *
 * <p>A record counts only while its holder lives: a pid that no longer runs, or now runs another
 * program (a different start time), or a kernel of this JVM that was closed, holds nothing. So a
 * vdpactl killed with SIGKILL while it has a node open blocks nobody afterwards — the kernel, too,
 * closes a dead process's files — and no clean-up step is needed.
 */
public final class StateFileNodeOpeners implements NodeOpeners {
    private static final Logger LOG = LoggerFactory.getLogger(StateFileNodeOpeners.class);
    /** The kernels of this JVM that are alive (not closed). */
    private static final Set<String> LIVE_KERNELS = ConcurrentHashMap.newKeySet();
    private static final long PID = ProcessHandle.current().pid();
    private static final Long START = ProcessHandle.current().info().startInstant().map(i -> i.toEpochMilli()).orElse(null);

    /** Numbers the kernels of this JVM. */
    private static final AtomicLong KERNELS = new AtomicLong();

    private final FakeStateStore store;
    /**
     * Which kernel of which JVM: the pid and its start time name the JVM among all processes that run at once (as
     * {@link #alive} tells them apart), the number the kernel within it. Not a random UUID: the JDK's SecureRandom
     * behind it loaded and seeded some 40 classes of security providers at every start of every fake command.
     */
    private final String kernel = PID + "-" + START + "-" + KERNELS.incrementAndGet();
    /**
     * Whether this kernel ever recorded an open: one that did not has nothing to drop and must not lock (or create)
     * the state. What a record may create is the store's decision ({@link FakeStateStore#updateOpenRecords}).
     */
    private volatile boolean recorded;

    public StateFileNodeOpeners(FakeStateStore store) {
        this.store = store;
        LIVE_KERNELS.add(kernel);
    }

    @Override
    public void claim(String device, int minor) {
        recorded = true;
        store.updateOpenRecords(s -> {
            List<NodeOpenRecord> live = liveRecords(s.openNodes());
            for (NodeOpenRecord o : live) {
                if (o.device().equals(device) && o.minor() == minor && !o.kernel().equals(kernel)) {
                    if (o.removing()) {
                        throw KernelError.of(Errno.ENOENT, "/dev/vhost-vdpa-" + minor + " is being removed by " + o.holder());
                    }
                    throw KernelError.of(Errno.EBUSY, "/dev/vhost-vdpa-" + minor + " is open in " + o.holder());
                }
            }
            live.add(new NodeOpenRecord(device, minor, PID, START, kernel, false));
            return s.withOpenNodes(live);
        });
    }

    @Override
    public void release(String device, int minor) {
        try {
            store.updateOpenRecords(s -> s.withOpenNodes(liveRecords(s.openNodes()).stream()
                    .filter(o -> !(o.kernel().equals(kernel) && o.device().equals(device) && o.minor() == minor)).toList()));
        } catch (RuntimeException e) {
            // the record dies with this process; another process then ignores it
            LOG.warn("could not record the close of /dev/vhost-vdpa-{} in the fake state: {}", minor, e.getMessage());
        }
    }

    @Override
    public Optional<String> claimForRemoval(String device, int minor) {
        String[] holder = new String[1];
        recorded = true;
        store.updateOpenRecords(s -> {
            List<NodeOpenRecord> live = liveRecords(s.openNodes());
            for (NodeOpenRecord o : live) {
                if (o.device().equals(device) && o.minor() == minor && !o.kernel().equals(kernel)) {
                    holder[0] = o.holder();
                    return s.withOpenNodes(live);
                }
            }
            live.removeIf(o -> o.kernel().equals(kernel) && o.device().equals(device));
            live.add(new NodeOpenRecord(device, minor, PID, START, kernel, true));
            return s.withOpenNodes(live);
        });
        return Optional.ofNullable(holder[0]);
    }

    @Override
    public void removalAbandoned(String device, int minor) {
        release(device, minor);
    }

    @Override
    public Optional<String> holder(String device, int minor) {
        return store.loadState().openNodes().stream()
                .filter(o -> o.device().equals(device) && o.minor() == minor && !o.kernel().equals(kernel) && alive(o))
                .map(NodeOpenRecord::holder).findFirst();
    }

    /** This kernel is gone: its records no longer count (and are dropped when it can). */
    public void close() {
        LIVE_KERNELS.remove(kernel);
        if (!recorded) {
            return;
        }
        try {
            store.updateOpenRecords(s -> s.withOpenNodes(liveRecords(s.openNodes())));
        } catch (RuntimeException e) {
            LOG.debug("could not drop this kernel's node records: {}", e.getMessage());
        }
    }

    /** The records whose holder still lives (a mutable copy). */
    private static List<NodeOpenRecord> liveRecords(List<NodeOpenRecord> records) {
        List<NodeOpenRecord> out = new ArrayList<>();
        for (NodeOpenRecord o : records) {
            if (alive(o)) {
                out.add(o);
            }
        }
        return out;
    }

    static boolean alive(NodeOpenRecord o) {
        if (o.kernel() == null) {
            return false;
        }
        if (o.pid() == PID && Objects.equals(o.startMillis(), START)) {
            return LIVE_KERNELS.contains(o.kernel());
        }
        if (o.startMillis() == null) {
            // vdpactl records its start time; a record without one (hand-written, or from a JVM that could not
            // tell) cannot be told from a reused pid, and trusting it made pid 1 "hold" a node forever
            return false;
        }
        return ProcessHandle.of(o.pid())
                .filter(ProcessHandle::isAlive)
                // a start time that cannot be read (another user's process) cannot confirm the record either
                .filter(p -> p.info().startInstant().map(i -> i.toEpochMilli() == o.startMillis()).orElse(false))
                .isPresent();
    }
}
