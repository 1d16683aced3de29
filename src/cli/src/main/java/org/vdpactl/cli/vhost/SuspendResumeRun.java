package org.vdpactl.cli.vhost;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.vdpactl.cli.CliContext;
import org.vdpactl.cli.CliFailure;
import org.vdpactl.cli.ExitCode;
import org.vdpactl.cli.ExitCodeMapper;
import org.vdpactl.report.JsonDocument;
import org.vdpactl.sys.SyscallException;
import org.vdpactl.time.Clock;
import org.vdpactl.vhost.DeviceStatus;
import org.vdpactl.vhost.VhostDeviceNodes;
import org.vdpactl.vhost.VhostVdpaDevice;

/**
 * Suspends (and optionally resumes) devices in parallel, one platform thread per device, and times
 * each call. A device this command opens itself is first brought to DRIVER_OK (suspend is a no-op
 * before it), and is reset again when the command closes it; with --fd the device is used as the
 * VMM left it.
 */
final class SuspendResumeRun {
    /**
     * One device's outcome. {@code millis} and the sentence {@code error} are schema version 1's keys; {@code duration_ms}
     * (the unit in the key, as in every other document) and the errno as number and name are the same as fields, so
     * that a program branches on EOPNOTSUPP without parsing a sentence (docs/json-schemas.md).
     */
    record Result(String device, String operation, double millis, String error, double durationMs, Integer errno,
                  String errnoName) {
        static Result ok(String device, String operation, double ms) {
            return new Result(device, operation, ms, null, ms, null, null);
        }

        static Result failed(String device, String operation, double ms, SyscallException e) {
            return new Result(device, operation, ms, e.getMessage(), ms, e.errno(), e.errnoName());
        }
    }

    /** A result and, when its call failed, the call's errno (else 0). */
    private record Timed(Result result, int errno) {
    }

    private SuspendResumeRun() {
    }

    static int run(CliContext ctx, List<String> devices, Integer fd, boolean suspend, boolean resumeAfter) {
        if (devices.isEmpty() == (fd == null)) {
            throw new IllegalArgumentException("give one or more DEV arguments, or --fd N");
        }
        List<VhostVdpaDevice> opened = new ArrayList<>();
        List<String> labels = new ArrayList<>();
        List<Timed> timed = new ArrayList<>();
        try {
            if (fd != null) {
                opened.add(DeviceOpener.inherited(ctx.syscalls(), fd));
                labels.add("fd " + fd);
            } else {
                refuseTwice(ctx, devices);
                for (String d : devices) {
                    VhostVdpaDevice dev = DeviceOpener.open(ctx.syscalls(), d);
                    opened.add(dev);
                    labels.add(d);
                    bringUp(dev);
                    if (!suspend) {
                        dev.suspend(); // resume needs a suspended device to mean anything
                    }
                }
            }
            timed.addAll(timeAll(ctx.clock(), opened, labels, suspend ? "suspend" : "resume"));
            if (suspend && resumeAfter && timed.stream().allMatch(t -> t.errno() == 0)) {
                timed.addAll(timeAll(ctx.clock(), opened, labels, "resume"));
            }
        } finally {
            for (VhostVdpaDevice d : opened) {
                d.close();
            }
        }
        print(ctx, timed.stream().map(Timed::result).toList());
        // one errno, one exit code, whichever call met it (ExitCodeMapper decides)
        return ExitCodeMapper.ofCalls(timed.size(), timed.stream().filter(t -> t.errno() != 0).map(Timed::errno).toList())
                .code();
    }



    /**
     * One device named twice (by name or node path) would be opened twice: the second open fails EBUSY, "held open"
     * by this very process. Said as what it is, before any device is touched.
     */
    private static void refuseTwice(CliContext ctx, List<String> devices) {
        Map<String, String> byNode = new LinkedHashMap<>();
        for (String d : devices) {
            String node;
            try {
                node = VhostDeviceNodes.resolve(ctx.syscalls(), d).path();
            } catch (RuntimeException e) {
                continue; // DeviceOpener reports it with its exit code
            }
            String before = byNode.putIfAbsent(node, d);
            if (before != null) {
                throw new IllegalArgumentException((before.equals(d) ? d + " is given twice" : before + " and " + d
                        + " are the same device") + " (" + node + "): give each device once");
            }
        }
    }

    private static void bringUp(VhostVdpaDevice dev) {
        dev.setOwner();
        dev.reset();
        dev.addStatus(DeviceStatus.ACKNOWLEDGE);
        dev.addStatus(DeviceStatus.DRIVER);
        dev.setFeatures(dev.getFeatures());
        dev.addStatus(DeviceStatus.FEATURES_OK);
        dev.addStatus(DeviceStatus.DRIVER_OK);
    }

    private static List<Timed> timeAll(Clock clock, List<VhostVdpaDevice> devices, List<String> labels, String op) {
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, devices.size()));
        try {
            long start = clock.nanoTime();
            List<Future<Timed>> futures = new ArrayList<>();
            for (int i = 0; i < devices.size(); i++) {
                VhostVdpaDevice d = devices.get(i);
                String label = labels.get(i);
                futures.add(pool.submit(() -> {
                    clock.continueAt(start);
                    long t0 = clock.nanoTime();
                    try {
                        if (op.equals("suspend")) {
                            d.suspend();
                        } else {
                            d.resume();
                        }
                        return new Timed(Result.ok(label, op, (clock.nanoTime() - t0) / 1e6), 0);
                    } catch (SyscallException e) {
                        return new Timed(Result.failed(label, op, (clock.nanoTime() - t0) / 1e6, e), e.errno());
                    }
                }));
            }
            List<Timed> out = new ArrayList<>();
            for (Future<Timed> f : futures) {
                out.add(f.get());
            }
            return out;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CliFailure(ExitCode.INTERRUPTED, "interrupted");
        } catch (ExecutionException e) {
            throw CliFailure.from(e.getCause(), "internal error: " + e.getCause());
        } finally {
            pool.shutdownNow();
        }
    }

    private static void print(CliContext ctx, List<Result> results) {
        ctx.printDocument(JsonDocument.VHOST_TIMING, () -> {
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("simulated", ctx.simulated());
            doc.put("results", results);
            return doc;
        }, out -> {
            out.printf("%-20s %-8s %12s  %s%n", "DEVICE", "OP", ctx.simulated() ? "MS (SIMUL.)" : "MS", "RESULT");
            for (Result r : results) {
                out.printf("%-20s %-8s %12.3f  %s%n", r.device(), r.operation(), r.millis(), r.error() == null ? "ok" : r.error());
            }
        });
    }
}
