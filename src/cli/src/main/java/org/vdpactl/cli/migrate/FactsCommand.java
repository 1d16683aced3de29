package org.vdpactl.cli.migrate;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.vdpactl.cli.CliContext;
import org.vdpactl.cli.CommandContext;
import org.vdpactl.cli.ReadOnlyCommand;
import org.vdpactl.cli.Sizes;
import org.vdpactl.report.JsonDocument;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code vdpactl migrate facts}: this host's devices and limits, as a document {@code migrate check} reads on another host. */
@Command(name = "facts", mixinStandardHelpOptions = true,
        description = {"Write this host's vDPA devices and limits, for `migrate check` on another host.",
                       "`vdpactl migrate facts --json > HOST.json`. Features (offered and negotiated), status, config,",
                       "backend features, groups and address spaces, where the control queue lands, kernel, driver,",
                       "the QEMU on PATH, RLIMIT_MEMLOCK and CAP_IPC_LOCK. A device held by a VM is not opened."})
final class FactsCommand implements Callable<Integer>, ReadOnlyCommand {
    @Mixin
    CommandContext context;

    @Option(names = "--host", paramLabel = "NAME", description = "The host's name in the document (default: this host's name).")
    String host;

    @Option(names = "--qemu-version", paramLabel = "VERSION",
            description = "The QEMU version the host's VMs run (default: asked of the qemu-system binary on PATH).")
    String qemuVersion;

    @Override
    public Integer call() {
        CliContext ctx = context.get();
        MigrationFacts.Qemu qemu = qemuVersion != null ? new MigrationFacts.Qemu(qemuVersion, "given") : QemuProbe.probe();
        MigrationFacts facts = new FactsCollector(ctx).collect(host != null ? host : hostName(), qemu);
        ctx.printDocument(JsonDocument.MIGRATE_FACTS, () -> facts, out -> print(out, facts));
        return 0;
    }

    static String hostName() {
        try {
            String h = Files.readString(Path.of("/proc/sys/kernel/hostname"), StandardCharsets.UTF_8).trim();
            return h.isEmpty() ? "localhost" : h;
        } catch (IOException e) {
            return "localhost";
        }
    }

    private static void print(PrintWriter out, MigrationFacts f) {
        out.println("host " + f.host() + ": " + (f.backend().kind().equals("fake") ? "fake kernel " + f.kernel().profile()
                + " (simulated devices)" : "Linux " + f.kernel().release()) + ", QEMU " + (f.qemu().version() == null ? "not found"
                : f.qemu().version() + " (" + f.qemu().source() + ")") + ", RLIMIT_MEMLOCK " + (f.memlock() == null ? "unknown"
                : f.memlock().softBytes() == -1 ? "unlimited" : Sizes.format(f.memlock().softBytes()))
                + (f.capIpcLock() ? ", CAP_IPC_LOCK" : ", no CAP_IPC_LOCK"));
        for (MigrationFacts.DeviceFacts d : f.devices()) {
            out.println(d.name() + ": " + d.type() + " on " + d.mgmtdev() + (d.driver() == null ? "" : " (" + d.driver() + ")")
                    + (d.heldBy().isEmpty() ? "" : ", held by " + String.join(", ", d.heldBy())));
            out.println("  features:   " + String.join(" ", d.featureNames()));
            if (d.negotiatedFeatureNames() != null) {
                out.println("  negotiated: " + String.join(" ", d.negotiatedFeatureNames()));
            }
            if (d.type().equals("net")) {
                out.println("  config:     mac " + (d.mac() == null ? "-" : d.mac()) + ", mtu " + (d.mtu() == null ? "-" : d.mtu())
                        + ", max VQ pairs " + (d.maxVqPairs() == null ? "-" : d.maxVqPairs()));
            }
            out.println("  backend:    " + (d.backendFeatures() == null ? "unknown" : String.join(" ", d.backendFeatureNames()))
                    + (d.backendFeaturesFrom() == null ? "" : " (read from " + d.backendFeaturesFrom() + ")"));
            if (d.cvq() != null) {
                out.println("  CVQ:        vq " + d.cvq().index() + (Boolean.TRUE.equals(d.cvq().isolable()) ? ", can have its own address space"
                        : ", shares address space 0: " + d.cvq().reason()));
            }
            out.println("  pins memory: " + (d.pinsMemory() ? "yes (RLIMIT_MEMLOCK counts)" : "no"));
        }
    }
}
