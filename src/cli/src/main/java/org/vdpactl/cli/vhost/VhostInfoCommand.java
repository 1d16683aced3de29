package org.vdpactl.cli.vhost;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.type.TypeReference;
import java.util.Objects;
import org.vdpactl.cli.CommandContext;
import org.vdpactl.cli.KernelFeatures;
import org.vdpactl.cli.ReadOnlyCommand;
import org.vdpactl.cli.doctor.HostFacts;
import org.vdpactl.vhost.BackendFeatures;

import java.util.concurrent.Callable;
import org.vdpactl.cli.CliContext;
import org.vdpactl.report.JsonDocument;
import org.vdpactl.sys.SyscallException;
import org.vdpactl.vhost.VhostInfo;
import org.vdpactl.vhost.VhostVdpaDevice;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code vdpactl vhost info DEV}. */
@Command(name = "info", mixinStandardHelpOptions = true,
        description = {"Show everything the vhost-vdpa ioctls say about one device.",
                       "Id, features, backend features, status, queues, groups, address spaces, IOVA range",
                       "and the decoded config space."})
final class VhostInfoCommand implements Callable<Integer>, ReadOnlyCommand {
    @Mixin
    CommandContext context;

    @Parameters(paramLabel = "DEV", arity = "0..1", description = "vdpa device name or /dev/vhost-vdpa-N")
    String device;

    @Option(names = "--fd", paramLabel = "N", description = "Use an already open vhost-vdpa descriptor instead of DEV.")
    Integer fd;

    @Override
    public Integer call() {
        CliContext ctx = context.get();
        if ((device == null) == (fd == null)) {
            throw new IllegalArgumentException("give exactly one of DEV or --fd N");
        }
        try (VhostVdpaDevice dev = fd != null ? DeviceOpener.inherited(ctx.syscalls(), fd) : DeviceOpener.open(ctx.syscalls(), device)) {
            if (fd == null) {
                // per-vq answers need ownership; taking it is harmless on a device we opened ourselves
                try {
                    dev.setOwner();
                } catch (SyscallException e) {
                    // another owner (inherited fd): per-vq fields stay empty
                }
            }
            VhostInfo info = VhostInfo.collect(dev);
            String release = ctx.simulated() ? null : new HostFacts().kernelRelease();
            var profile = KernelFeatures.profile(ctx.backend(), release);
            List<KernelFeatures.MissingFeature> missing = KernelFeatures.missingBackendFeatures(
                    new BackendFeatures(Long.parseUnsignedLong(info.backendFeatures().substring(2), 16)));
            List<String> costs = missing.stream().map(KernelFeatures.MissingFeature::cost).toList();
            List<KernelFeatures.Absent> absentCalls = profile.map(KernelFeatures::absentCalls).orElse(List.of());
            List<String> absent = absentCalls.stream().map(KernelFeatures.Absent::line).toList();
            String kernel = profile.map(p -> "Linux " + p.version() + (ctx.simulated() ? " (fake kernel profile)"
                    : " profile (running " + release + ")")).orElse("unknown");
            ctx.printDocument(JsonDocument.VHOST_INFO, () -> {
                // the info document plus a "kernel" object: what this kernel lacks and what the device's gaps cost
                Map<String, Object> doc = new LinkedHashMap<>(ctx.mapper().convertValue(info, new TypeReference<Map<String, Object>>() { }));
                // a config field the device's features do not make valid is left out, as in `vdpa -j dev config show`
                if (doc.get("config") instanceof Map<?, ?> config) {
                    config.values().removeIf(Objects::isNull);
                }
                Map<String, Object> k = new LinkedHashMap<>();
                k.put("profile", profile.map(p -> p.version()).orElse(null));
                k.put("simulated", ctx.simulated());
                // the sentences of schema version 1 and, beside them, the same as fields (docs/json-schemas.md)
                k.put("absent", absent);
                k.put("costs", costs);
                k.put("absent_calls", ctx.mapper().convertValue(absentCalls, List.class));
                k.put("missing_backend_features", ctx.mapper().convertValue(missing, List.class));
                doc.put("kernel", k);
                return doc;
            }, out -> {
                out.print(info.toText());
                out.println("kernel: " + kernel + (absent.isEmpty() ? "" : "; lacks " + String.join(", ", absent)));
                costs.forEach(c -> out.println("  " + c));
            });
        }
        return 0;
    }
}
