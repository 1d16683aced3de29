package org.vdpactl.fake.mlx5;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Random;

/**
 * The command queue of one function: turns commands into time with the §4.1 rules, applies the
 * optional jitter and the armed {@link FwFault}s. Not thread-safe; the device serialises its ops.
 */
final class CommandQueue {
    private final Mlx5Params p;
    private final Random jitter;
    private final List<ArmedFault> faults = new ArrayList<>();

    CommandQueue(Mlx5Params p) {
        this.p = p;
        this.jitter = p.jitterSigma() > 0 ? new Random(p.jitterSeed()) : null;
    }

    void arm(FwFault fault) {
        faults.add(new ArmedFault(fault));
    }

    List<FwFault> armedFaults() {
        return faults.stream().map(a -> a.fault).toList();
    }

    /** Runs {@code commands} as one async batch of their class; all must be of one class. */
    AsyncBatch.Result batch(List<FwCommand> commands) {
        if (commands.isEmpty()) {
            return new AsyncBatch.Result(0, new double[0], new double[0], new double[0], new int[0]);
        }
        boolean throttled = commands.getFirst().opcode().throttled();
        boolean mkey = commands.getFirst().opcode() == FwOpcode.CREATE_MKEY
                || commands.getFirst().opcode() == FwOpcode.DESTROY_MKEY;
        for (FwCommand c : commands) {
            if (c.opcode().throttled() != throttled) {
                throw new IllegalArgumentException("one batch mixes throttled and unthrottled commands");
            }
        }
        int limit = throttled ? p.throttleSlots() : p.cmdSlots();
        int servers = mkey ? p.fwConcurrencyMkey() : p.fwConcurrencyObj();
        return AsyncBatch.simulate(timed(commands), servers, limit, p.roundTripMs());
    }

    /** Runs one command synchronously (a batch of one). */
    AsyncBatch.Result sync(FwCommand command) {
        return AsyncBatch.simulate(timed(List.of(command)), 1, 1, p.roundTripMs());
    }

    /**
     * The duration of one synchronous command when no fault is armed (then it cannot fail), else
     * NaN: the caller takes {@link #sync} instead. Draws the jitter exactly as {@link #sync} does;
     * the common path of every op (a reset issues some 350 sync commands) allocates nothing.
     */
    double syncMsWithoutFaults(FwCommand command) {
        if (!faults.isEmpty()) {
            return Double.NaN;
        }
        double s = command.serviceMs() * jitterFactor();
        return AsyncBatch.syncMs(p.issueMs(command.inputBlocks()), s, p.roundTripMs());
    }

    private List<AsyncBatch.Command> timed(List<FwCommand> commands) {
        List<AsyncBatch.Command> l = new ArrayList<>(commands.size());
        for (FwCommand c : commands) {
            double s = c.serviceMs() * jitterFactor();
            l.add(new AsyncBatch.Command(p.issueMs(c.inputBlocks()), s, failureOf(c.opcode())));
        }
        return l;
    }

    private double jitterFactor() {
        return jitter == null ? 1.0 : Math.exp(p.jitterSigma() * jitter.nextGaussian());
    }

    private AsyncBatch.Failure failureOf(FwOpcode op) {
        if (faults.isEmpty()) {
            return null;
        }
        AsyncBatch.Failure hit = null;
        for (Iterator<ArmedFault> it = faults.iterator(); it.hasNext(); ) {
            ArmedFault a = it.next();
            if (!a.fault.matches(op) || ++a.seen < a.fault.nth() || hit != null) {
                continue;
            }
            it.remove();
            hit = switch (a.fault.kind()) {
                case STATUS_ERROR -> new AsyncBatch.Failure(a.fault.errno(), Double.NaN, true);
                case TIMEOUT -> new AsyncBatch.Failure(a.fault.errno(), p.cmdTimeoutMs(), true);
                case SLOT_STARVATION -> new AsyncBatch.Failure(a.fault.errno(), p.cmdTimeoutMs(), false);
            };
        }
        return hit;
    }

    private static final class ArmedFault {
        final FwFault fault;
        int seen;

        ArmedFault(FwFault fault) {
            this.fault = fault;
        }
    }
}
