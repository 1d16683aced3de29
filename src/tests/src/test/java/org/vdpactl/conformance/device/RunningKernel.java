package org.vdpactl.conformance.device;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.vdpactl.abi.KernelProfile;
import org.vdpactl.abi.KernelProfiles;

/** The kernel profile whose facts the running kernel (uname -r) must show. */
public final class RunningKernel {
    private RunningKernel() {
    }

    public static KernelProfile profile() {
        try {
            String release = Files.readString(Path.of("/proc/sys/kernel/osrelease")).trim();
            return KernelProfiles.forRelease(release)
                    .orElseThrow(() -> new IllegalStateException("unparseable kernel release " + release));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
