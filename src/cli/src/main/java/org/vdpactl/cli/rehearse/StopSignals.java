package org.vdpactl.cli.rehearse;

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
 */
public final class StopSignals implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(StopSignals.class);
    private static final List<String> NAMES = List.of("INT", "TERM");

    private final AtomicReference<String> received = new AtomicReference<>();
    private final List<Signal> signals = new ArrayList<>();
    private final List<SignalHandler> previous = new ArrayList<>();

    private StopSignals() {
    }

    /** Installs the handlers; a JVM that does not let us handle a signal (-Xrs) keeps its own for it. */
    public static StopSignals install() {
        StopSignals s = new StopSignals();
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
        for (int i = 0; i < signals.size(); i++) {
            Signal.handle(signals.get(i), previous.get(i));
        }
    }
}
