package org.vdpactl.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * SIGINT and SIGTERM during a rehearsal: instead of the JVM's default (exit at once, devices left
 * as the window had them, nothing printed), the first signal asks the rehearsal to stop at its next
 * safe point ({@link org.vdpactl.orchestra.Rehearsal#stopWhen}); the command then prints what was
 * measured and the per-device report and exits INTERRUPTED. A second signal means "now": the
 * handler the JVM had is restored and run (exit 130 / 143 at once). Closing restores the previous
 * handlers.
 *
 * <p>The same for every command that waits or runs several steps ({@code dev del --wait}, a {@code --batch}): it
 * installs these, checks {@link #requested()} where it can stop cleanly, and ends INTERRUPTED with one line saying
 * what was and was not done. Installed while another command of this process has them (a batch line inside a
 * batch), it shares that one's: one signal stops both the line and the batch, and a second still means "now".
 */
public final class StopSignals implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(StopSignals.class);
    private static final List<String> NAMES = List.of("INT", "TERM");

    /** The handlers installed in this process, if any: a command run inside another shares them. */
    private static StopSignals installed;

    private final AtomicReference<String> received;
    private final List<Signal> signals = new ArrayList<>();
    private final List<SignalHandler> previous = new ArrayList<>();
    /** False for a command's view of handlers another command installed: closing it leaves them. */
    private final boolean owner;

    private StopSignals(AtomicReference<String> received, boolean owner) {
        this.received = received;
        this.owner = owner;
    }

    /** Installs the handlers; a JVM that does not let us handle a signal (-Xrs) keeps its own for it. */
    public static synchronized StopSignals install() {
        if (installed != null) {
            return new StopSignals(installed.received, false);
        }
        StopSignals s = new StopSignals(new AtomicReference<>(), true);
        installed = s;
        for (String name : NAMES) {
            Signal sig = new Signal(name);
            try {
                SignalHandler old = Signal.handle(sig, s::handle);
                s.signals.add(sig);
                s.previous.add(old);
            } catch (IllegalArgumentException e) {
                LOG.debug("SIG{} cannot be handled here ({}); it ends the rehearsal at once", name, e.getMessage());
            }
        }
        return s;
    }

    private void handle(Signal sig) {
        if (received.compareAndSet(null, "SIG" + sig.getName())) {
            return; // the rehearsal polls requested() at its next safe point
        }
        int i = signals.indexOf(sig);
        SignalHandler old = i < 0 ? SignalHandler.SIG_DFL : previous.get(i);
        if (old == SignalHandler.SIG_DFL || old == SignalHandler.SIG_IGN || old == null) {
            Runtime.getRuntime().halt(128 + sig.getNumber());
        }
        old.handle(sig);
    }

    /** True once SIGINT or SIGTERM arrived. */
    public boolean requested() {
        return received.get() != null;
    }

    /** "SIGTERM" or "SIGINT": the first signal that arrived, or null. */
    public String signalName() {
        return received.get();
    }

    @Override
    public void close() {
        synchronized (StopSignals.class) {
            if (!owner) {
                return;
            }
            for (int i = 0; i < signals.size(); i++) {
                Signal.handle(signals.get(i), previous.get(i));
            }
            if (installed == this) {
                installed = null;
            }
        }
    }
}
