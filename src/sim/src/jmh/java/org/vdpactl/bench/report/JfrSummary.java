package org.vdpactl.bench.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

/**
 * Where one thread of a JFR recording spent its samples, as Markdown: how many samples found it running Java
 * code and how many in native code (for a downcall: the native function, the kernel and the thread-state
 * transition), then the top frames of each kind. Only the thread that does the work counts (JMH's worker
 * thread, or {@code main}); JFR's and JMH's own threads would drown a benchmark of a few hundred ns.
 *
 * <p>Usage: {@code JfrSummary RECORDING.jfr THREAD-NAME-PART ROWS}.
 */
public final class JfrSummary {
    private JfrSummary() {
    }

    public static void main(String[] args) throws IOException {
        Path file = Path.of(args[0]);
        String thread = args[1];
        int rows = Integer.parseInt(args[2]);
        Map<String, Integer> java = new LinkedHashMap<>();
        Map<String, Integer> nativ = new LinkedHashMap<>();
        for (RecordedEvent e : RecordingFile.readAllEvents(file)) {
            String type = e.getEventType().getName();
            boolean isJava = type.equals("jdk.ExecutionSample");
            if (!isJava && !type.equals("jdk.NativeMethodSample")) {
                continue;
            }
            RecordedThread t = e.getThread("sampledThread");
            if (t == null || t.getJavaName() == null || !t.getJavaName().contains(thread) || e.getStackTrace() == null) {
                continue;
            }
            List<RecordedFrame> frames = e.getStackTrace().getFrames();
            String top = frames.isEmpty() ? "(no frames)" : describe(frames.get(0));
            (isJava ? java : nativ).merge(top, 1, Integer::sum);
        }
        int j = java.values().stream().mapToInt(Integer::intValue).sum();
        int n = nativ.values().stream().mapToInt(Integer::intValue).sum();
        System.out.printf("Thread `*%s*`: %d samples, %d in native code (%s), %d running Java code.%n%n", thread, j + n, n,
                j + n == 0 ? "n/a" : Math.round(100.0 * n / (j + n)) + " %", j);
        table("Native (the downcall: native function, kernel, thread-state transition)", nativ, n, rows);
        table("Java", java, j, rows);
    }

    private static String describe(RecordedFrame f) {
        String type = f.getMethod().getType().getName();
        // generated lambda forms carry an address in their name; the address says nothing across runs
        type = type.replaceAll("/0x[0-9a-f]+$", "").replaceAll("\\.0x[0-9a-f]+$", "");
        return type + "." + f.getMethod().getName();
    }

    private static void table(String title, Map<String, Integer> counts, int total, int rows) {
        if (total == 0) {
            return;
        }
        System.out.println("| " + title + ": top frame | samples | share |");
        System.out.println("|---|---|---|");
        counts.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed()).limit(rows)
                .forEach(e -> System.out.printf("| `%s` | %d | %d %% |%n", e.getKey(), e.getValue(), Math.round(100.0 * e.getValue() / total)));
        System.out.println();
    }
}
