package org.vdpactl.fake.mlx5;

import java.util.List;

/**
 * Discrete-event simulation of one batch of firmware commands (docs/spec/mlx5-model.md §4.1),
 * as {@code mlx5_vdpa_exec_async_cmds()} issues it.
 *
 * <p>One issuer thread spends {@code issueMs} per command, in order, and then posts it. A posted
 * command enters FW when one of {@code servers} FW servers is free (FIFO) and completes
 * {@code serviceMs + roundTripMs} after entering. At most {@code maxOutstanding} commands may be in
 * flight: when the limit is reached the issuer waits for its oldest command not yet waited for and
 * retries (the wrapper's −EBUSY path). The batch ends when the issuer is done and every command has
 * completed. A sync command is a batch of one.
 *
 * <p>For n identical commands this is {@code roundTrip + max(n·iss + s, r·iss + ⌈n/F⌉·s)} with
 * {@code r = n − F·⌊(n−1)/F⌋} (the size of the last FW round) as long as the outstanding limit does
 * not starve the servers; the spec's closed form uses {@code r = 1}, which is exact when
 * {@code n ≡ 1 (mod F)}, when {@code n ≤ F}, or when the batch is issuer-bound, and otherwise
 * under-estimates by {@code (r−1)·iss}.
 */
public final class AsyncBatch {
    private AsyncBatch() {
    }

    /**
     * One command of a batch.
     *
     * @param issueMs   host time to build and post it
     * @param serviceMs FW service time
     * @param failure   how it fails, or null
     */
    public record Command(double issueMs, double serviceMs, Failure failure) {
        public static Command of(double issueMs, double serviceMs) {
            return new Command(issueMs, serviceMs, null);
        }
    }

    /**
     * How a command fails.
     *
     * @param errno      the error its completion reports
     * @param afterMs    when not NaN: it completes this long after posting (a timeout) instead of after service
     * @param executes   false if FW never runs it (no slot within the timeout)
     */
    public record Failure(int errno, double afterMs, boolean executes) {
    }

    /**
     * The outcome of a batch.
     *
     * @param durationMs  from the first issue to the last completion
     * @param postedMs    when each command was posted
     * @param startedMs   when each command entered FW (NaN if it never did)
     * @param completedMs when each completion arrived
     * @param errno       each command's result (0 = success)
     */
    public record Result(double durationMs, double[] postedMs, double[] startedMs, double[] completedMs, int[] errno) {
        /** The first error in issue order, as the wrapper returns it; 0 if all succeeded. */
        public int firstError() {
            for (int e : errno) {
                if (e != 0) {
                    return e;
                }
            }
            return 0;
        }
    }

    /** Runs the batch; see the class comment for the rule. */
    public static Result simulate(List<Command> commands, int servers, int maxOutstanding, double roundTripMs) {
        if (servers < 1 || maxOutstanding < 1) {
            throw new IllegalArgumentException("servers and maxOutstanding must be ≥ 1");
        }
        int n = commands.size();
        double[] posted = new double[n];
        double[] started = new double[n];
        double[] completed = new double[n];
        int[] errno = new int[n];
        // when each FW server is next free; the earliest takes the next command (FIFO). A few
        // servers: a scan of a primitive array, no boxed priority queue per batch
        double[] serverFreeAt = new double[Math.min(servers, Math.max(1, n))];
        double issuer = 0;
        int oldestNotWaited = 0;
        double end = 0;
        for (int i = 0; i < n; i++) {
            Command c = commands.get(i);
            issuer += c.issueMs();
            while (inFlight(completed, i, issuer) >= maxOutstanding) {
                issuer = Math.max(issuer, completed[oldestNotWaited]);
                oldestNotWaited++;
            }
            posted[i] = issuer;
            Failure f = c.failure();
            if (f != null && !f.executes()) {
                started[i] = Double.NaN;
            } else {
                int server = earliest(serverFreeAt);
                double start = Math.max(issuer, serverFreeAt[server]);
                serverFreeAt[server] = start + c.serviceMs();
                started[i] = start;
                completed[i] = start + c.serviceMs() + roundTripMs;
            }
            if (f != null) {
                errno[i] = f.errno();
                if (!Double.isNaN(f.afterMs())) {
                    completed[i] = issuer + f.afterMs();
                }
            }
            end = Math.max(end, completed[i]);
        }
        return new Result(Math.max(issuer, end), posted, started, completed, errno);
    }

    private static int earliest(double[] freeAt) {
        int best = 0;
        for (int k = 1; k < freeAt.length; k++) {
            if (freeAt[k] < freeAt[best]) {
                best = k;
            }
        }
        return best;
    }

    /**
     * A synchronous command (a batch of one on one server) without a failure: issue, service and
     * the round trip one after another. What {@link #simulate} gives for it, without its arrays.
     */
    public static double syncMs(double issueMs, double serviceMs, double roundTripMs) {
        return issueMs + serviceMs + roundTripMs;
    }

    private static int inFlight(double[] completed, int issued, double now) {
        int count = 0;
        for (int j = 0; j < issued; j++) {
            if (completed[j] > now) {
                count++;
            }
        }
        return count;
    }

    /** The spec's closed form for n identical commands (§4.1). */
    public static double closedForm(int n, double issueMs, double serviceMs, int servers, double roundTripMs) {
        return roundTripMs + Math.max(n * issueMs + serviceMs, issueMs + ceilDiv(n, servers) * serviceMs);
    }

    /** The exact value of the simulation for n identical commands when the outstanding limit never starves FW. */
    public static double exactForm(int n, double issueMs, double serviceMs, int servers, double roundTripMs) {
        int lastRound = n - servers * ((n - 1) / servers);
        return roundTripMs + Math.max(n * issueMs + serviceMs, lastRound * issueMs + ceilDiv(n, servers) * serviceMs);
    }

    private static int ceilDiv(int a, int b) {
        return (a + b - 1) / b;
    }
}
