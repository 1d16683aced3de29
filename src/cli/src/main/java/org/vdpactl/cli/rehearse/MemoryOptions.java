package org.vdpactl.cli.rehearse;

import java.nio.file.Path;
import java.util.List;
import org.vdpactl.cli.CompletionValues;
import org.vdpactl.cli.Sizes;
import org.vdpactl.orchestra.GuestMemoryLayout;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** The guest memory options of {@code rehearse} and {@code bench orchestration} (a picocli mixin). */
public final class MemoryOptions {
    @Option(names = "--memory", paramLabel = "SIZE", defaultValue = "4G",
            description = "Guest RAM to map (default: ${DEFAULT-VALUE}); on x86 the first 2 GiB sit below 4 GiB, the rest above.")
    String memory;

    @Option(names = "--regions", paramLabel = "SIZE", defaultValue = "1G",
            description = "Size of each memory region (one IOTLB entry per region; default: ${DEFAULT-VALUE}).")
    String regions;

    @Option(names = "--page-size", paramLabel = "SIZE", completionCandidates = CompletionValues.PageSizes.class, defaultValue = "4K",
            description = "Host page size backing guest RAM (4K, 2M, 1G; default: ${DEFAULT-VALUE}): how finely the device translates it.")
    String pageSize;

    @Option(names = "--flat", description = "One run of RAM from address 0 (no hole below 4 GiB).")
    boolean flat;

    @Option(names = "--memory-layout", paramLabel = "FILE.json",
            description = "Explicit regions (iova, size, pageSize, split) instead of --memory/--regions/--page-size.")
    Path layoutFile;

    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    /** The --memory-layout file, or null. */
    public Path layoutFile() {
        return layoutFile;
    }

    /** The layout the options describe; options that would be ignored are refused, naming why. */
    public GuestMemoryLayout layout() {
        if (layoutFile != null) {
            for (String ignored : List.of("--memory", "--regions", "--page-size", "--flat")) {
                if (given(ignored)) {
                    throw new IllegalArgumentException(ignored + " has no effect with --memory-layout, whose file gives every region;"
                            + " drop one of them");
                }
            }
            return MemoryLayoutFile.read(layoutFile);
        }
        long total = Sizes.parse(memory, "--memory");
        long region = Sizes.parse(regions, "--regions");
        if (region > total && given("--regions")) { // the default 1G with a smaller --memory means one region
            throw new IllegalArgumentException("--regions " + regions + " is larger than --memory " + memory
                    + ": each region is a part of the guest's memory");
        }
        return GuestMemoryLayout.of(total, region, Sizes.parse(pageSize, "--page-size"), !flat);
    }

    private boolean given(String option) {
        return command != null && command.commandLine() != null && command.commandLine().getParseResult() != null
                && command.commandLine().getParseResult().hasMatchedOption(option);
    }
}
