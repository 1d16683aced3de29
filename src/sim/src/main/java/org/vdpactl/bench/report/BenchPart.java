package org.vdpactl.bench.report;

import java.io.IOException;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The parts of scripts/bench, each kept as its own records (docs/bench-records/ID/) and rendered as its own
 * block of docs/benchmarks.md: which files of a run belong to it, which of the run's commands and
 * parameters made it, and which files show that it ran at all.
 */
enum BenchPart {
    IOCTL("ioctl", "jmh-ioctl-\\d+\\.json|c-ioctl\\.txt|profile-1-.*\\.md", "jmh-ioctl", List.of("c-ioctl.txt"),
            List.of("build", "c.build", "c.ioctl", "jmh.ioctl"), List.of("jmh_options", "ioctl_rounds", "c_repetitions")),
    // the C loop of part 1 also times the IOTLB messages to /dev/null: part 2's yardstick from the same run
    IOTLB("iotlb", "jmh-iotlb-\\d+\\.json|c-ioctl\\.txt|profile-2-.*\\.md", "jmh-iotlb", List.of(),
            List.of("build", "c.build", "c.ioctl", "c.iotlb.build", "jmh.iotlb"), List.of("jmh_options", "rounds", "c_repetitions")),
    NETLINK("netlink", "jmh-netlink-\\d+\\.json", "jmh-netlink", List.of(),
            List.of("build", "jmh.netlink"), List.of("jmh_options", "rounds")),
    STARTUP("startup", "startup\\.json|startup-classes\\.properties|startup-measured\\.txt|profile-4-.*\\.md", null, List.of("startup.json"),
            List.of("build", "startup"), List.of("startup_rounds", "startup_warmup")),
    // where start-up goes, in classes loaded per phase: counts the machine's load does not change
    CLASSES("classes", "classes\\.txt", null, List.of("classes.txt"), List.of("build", "classes"), List.of()),
    VM("vm", "vm-jmh-\\d+\\.json|vm-c\\.txt|vm-notes\\.md|profile-5-.*\\.md", "vm-jmh", List.of("vm-c.txt"),
            List.of("build", "vm.c.build", "vm", "vm.c", "vm.jmh"), List.of("vm_jmh_options")),
    ORCHESTRATION("orchestration", "orchestration\\.json", null, List.of("orchestration.json"),
            List.of("orchestration"), List.of("orchestration_options"));

    private final String id;
    private final Pattern files;
    private final String jmhPrefix;
    private final List<String> required;
    private final List<String> commandKeys;
    private final List<String> parameterKeys;

    BenchPart(String id, String files, String jmhPrefix, List<String> required, List<String> commandKeys, List<String> parameterKeys) {
        this.id = id;
        this.files = Pattern.compile(files);
        this.jmhPrefix = jmhPrefix;
        this.required = required;
        this.commandKeys = commandKeys;
        this.parameterKeys = parameterKeys;
    }

    String id() {
        return id;
    }

    boolean owns(String fileName) {
        return files.matcher(fileName).matches();
    }

    /**
     * Whether a run's files hold this part's results: its required files and, for a JMH part, at least one
     * benchmark's results (a part skipped, not asked for, or whose every JMH run failed has none).
     */
    boolean ran(ResultFiles run) throws IOException {
        for (String name : required) {
            if (run.text(name).isEmpty()) {
                return false;
            }
        }
        return jmhPrefix == null || !JmhResults.read(run, jmhPrefix).isEmpty();
    }

    List<String> commandKeys() {
        return commandKeys;
    }

    /** The run's parameters that shape this part's figures ({@code reduced} is added to every part). */
    List<String> parameterKeys() {
        return parameterKeys;
    }

    boolean usesJmh() {
        return jmhPrefix != null;
    }

    /** Parts 1, 2 and 5 compare with C programs built by the machine's gcc. */
    boolean usesC() {
        return this == IOCTL || this == IOTLB || this == VM;
    }

    static BenchPart of(String id) {
        for (BenchPart p : values()) {
            if (p.id.equals(id)) {
                return p;
            }
        }
        throw new IllegalArgumentException("no benchmark part " + id);
    }
}
