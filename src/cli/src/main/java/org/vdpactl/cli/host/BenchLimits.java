package org.vdpactl.cli.host;

import java.util.List;
import org.vdpactl.fake.ResourceLimit;

/**
 * The RLIMIT_NOFILE of {@code bench orchestration}'s simulated hosts: their processes are this JVM,
 * so they start with the real process's limits and raise the soft one to the hard one as HotSpot
 * does; a hard limit too low for the largest size is refused before the first run.
 */
public final class BenchLimits {
    private BenchLimits() {
    }

    /**
     * The real process's RLIMIT_NOFILE (the fake's default where JNR-POSIX cannot read it), checked for
     * the largest of {@code sizes}.
     *
     * @throws org.vdpactl.cli.CliFailure (RESOURCE_LIMIT) when the hard limit is too low
     */
    public static ResourceLimit inheritedNofile(List<Integer> sizes) {
        ResourceLimit nofile = PosixProcessLimits.current().map(ProcessLimits::nofile).orElse(ResourceLimit.SYSTEMD_NOFILE);
        int largest = sizes.stream().mapToInt(Integer::intValue).max().orElse(1);
        // a simulated host's process opens nothing before the rehearsal: only the rehearsal's own descriptors count
        ResourcePreflight.raiseTo(nofile.raisedToHard(), ResourcePreflight.descriptorsNeeded(largest, 0), largest, "benchmarking");
        return nofile;
    }
}
