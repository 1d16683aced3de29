package org.vdpactl.report;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * Where a document's figures come from, as fields a program can compare (the text reports print a
 * sentence built from them). No local path: documents get shared.
 *
 * @param kind            "fake" or "kernel"
 * @param kernelProfile   the Linux version the fake speaks ("6.1", "6.12", "7.2"); null on the kernel
 * @param kernelRelease   the running kernel's release; null on the fake
 * @param presets         the mlx5 latency presets of the rehearsed fake devices (empty otherwise)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record BackendFields(String kind, String kernelProfile, String kernelRelease, List<String> presets) {

    public BackendFields {
        presets = List.copyOf(presets);
    }
}
