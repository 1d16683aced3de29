package org.vdpactl.lane;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.zip.GZIPInputStream;

/**
 * The lane guest's clock, as the side-by-side downtime figures depend on it: which clocksource the
 * guest kernel reads and the step the clocks actually advance by. Under TCG without a clock the
 * kernel trusts, the guest fell back to the jiffies clock and both clocks moved in 4 ms steps (HZ=250),
 * so every downtime was a multiple of 4 ms (the 6.12 record of 2026-12-06 08:04). QEMU's trace
 * points carry gettimeofday's wall-clock microseconds and the rehearsal times with System.nanoTime:
 * both clocks are measured, and the coarser one is the resolution.
 */
public final class GuestClock {
    /** The coarsest step the downtime figures may have: they are a few milliseconds long. */
    public static final double FINE_ENOUGH_US = 100;
    private static final Path CLOCKSOURCE = Path.of("/sys/devices/system/clocksource/clocksource0");
    /** Nonzero steps sampled per clock; the median of them is the step. */
    private static final int STEPS = 200;
    /** Reads per clock at most: a clock that never moves still ends the measurement. */
    private static final long MAX_READS = 20_000_000L;

    private GuestClock() {
    }

    /**
     * The median nonzero step of a nanosecond clock, in microseconds (the median, not the minimum:
     * one odd step, e.g. an adjustment, does not make a tick clock look fine); infinity when it never
     * moved within the read budget.
     */
    public static double stepMicros(LongSupplier nanos) {
        long[] steps = new long[STEPS];
        int n = 0;
        long last = nanos.getAsLong();
        for (long reads = 0; n < STEPS && reads < MAX_READS; reads++) {
            long now = nanos.getAsLong();
            if (now != last) {
                steps[n++] = Math.abs(now - last);
                last = now;
            }
        }
        if (n == 0) {
            return Double.POSITIVE_INFINITY;
        }
        long[] seen = Arrays.copyOf(steps, n);
        Arrays.sort(seen);
        return seen[n / 2] / 1e3;
    }

    /** Whether a clock with this step is fine enough for the downtime figures. */
    public static boolean fineEnough(double stepMicros) {
        return stepMicros <= FINE_ENOUGH_US;
    }

    /** The wall clock as QEMU's trace points read it (gettimeofday, CLOCK_REALTIME), in nanoseconds. */
    static long realtimeNanos() {
        Instant t = Instant.now();
        return t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }

    /**
     * The guest's clock as a record: the clocksource in use and those available (sysfs), the kernel's
     * command line, the measured steps of the monotonic and the wall clock, the coarser of the two as
     * the resolution, the limit and the verdict; and, for the vCPU count of the figures, the CPUs the
     * kernel can have and whether it was built with SMP.
     */
    public static Map<String, Object> measure() throws IOException {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("schema", "vdpactl-guest-clock/1");
        doc.put("clocksource", read(CLOCKSOURCE.resolve("current_clocksource")));
        doc.put("availableClocksources", read(CLOCKSOURCE.resolve("available_clocksource")));
        doc.put("kernelCommandLine", read(Path.of("/proc/cmdline")));
        double monotonic = stepMicros(System::nanoTime);
        double realtime = stepMicros(GuestClock::realtimeNanos);
        double resolution = Math.max(monotonic, realtime);
        doc.put("monotonicStepUs", monotonic);
        doc.put("realtimeStepUs", realtime);
        doc.put("resolutionUs", resolution);
        doc.put("limitUs", FINE_ENOUGH_US);
        doc.put("fineEnough", fineEnough(resolution));
        doc.put("possibleCpus", read(Path.of("/sys/devices/system/cpu/possible")));
        doc.put("onlineCpus", Runtime.getRuntime().availableProcessors());
        doc.put("kernelSmp", kernelOption("CONFIG_SMP"));
        return doc;
    }

    private static String read(Path p) {
        try {
            return Files.readString(p, StandardCharsets.US_ASCII).strip();
        } catch (IOException e) {
            return "unreadable: " + e.getMessage();
        }
    }

    /** true/false for a bool option of /proc/config.gz (the lane kernel has IKCONFIG_PROC), null without it. */
    static Boolean kernelOption(String name) {
        Path config = Path.of("/proc/config.gz");
        if (!Files.isReadable(config)) {
            return null;
        }
        try (InputStream in = new GZIPInputStream(Files.newInputStream(config))) {
            String text = new String(in.readAllBytes(), StandardCharsets.US_ASCII);
            return text.lines().anyMatch(l -> l.equals(name + "=y"));
        } catch (IOException e) {
            return null;
        }
    }
}
