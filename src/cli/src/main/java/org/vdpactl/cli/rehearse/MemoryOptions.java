package org.vdpactl.cli.rehearse;

import java.nio.file.Path;
import org.vdpactl.cli.Sizes;
import org.vdpactl.orchestra.GuestMemoryLayout;
import picocli.CommandLine.Option;

/** The guest memory options of {@code rehearse} and {@code bench orchestration} (a picocli mixin). */
public final class MemoryOptions {
    @Option(names = "--memory", paramLabel = "SIZE", defaultValue = "4G",
            description = "Guest RAM to map (default: ${DEFAULT-VALUE}); on x86 the first 2 GiB sit below 4 GiB, the rest above.")
    String memory;

    @Option(names = "--regions", paramLabel = "SIZE", defaultValue = "1G",
            description = "Size of each memory region (one IOTLB entry per region; default: ${DEFAULT-VALUE}).")
    String regions;

    @Option(names = "--page-size", paramLabel = "SIZE", defaultValue = "4K",
            description = "Host page size backing guest RAM (4K, 2M, 1G; default: ${DEFAULT-VALUE}): how finely the device translates it.")
    String pageSize;

    @Option(names = "--flat", description = "One run of RAM from address 0 (no hole below 4 GiB).")
    boolean flat;

    @Option(names = "--memory-layout", paramLabel = "FILE.json",
            description = "Explicit regions (iova, size, pageSize, split) instead of --memory/--regions/--page-size.")
    Path layoutFile;

    /** The layout the options describe. */
    public GuestMemoryLayout layout() {
        if (layoutFile != null) {
            return MemoryLayoutFile.read(layoutFile);
        }
        return GuestMemoryLayout.of(Sizes.parse(memory, "--memory"), Sizes.parse(regions, "--regions"),
                Sizes.parse(pageSize, "--page-size"), !flat);
    }
}
