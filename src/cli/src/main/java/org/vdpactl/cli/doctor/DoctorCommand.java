package org.vdpactl.cli.doctor;

import org.vdpactl.cli.CliFailure;
import org.vdpactl.cli.host.Terminal;
import org.vdpactl.cli.CommandContext;
import org.vdpactl.cli.KernelFeatures;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.OptionalInt;
import java.util.Map;
import java.util.concurrent.Callable;
import org.vdpactl.cli.BackendKind;
import org.vdpactl.cli.CliContext;
import org.vdpactl.cli.ExitCode;
import org.vdpactl.cli.ReadOnlyCommand;
import org.vdpactl.cli.Sizes;
import org.vdpactl.report.JsonDocument;
import org.vdpactl.vhost.VhostDeviceNodes;
import org.vdpactl.vhost.VhostNodeException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code vdpactl doctor}: can this host drive real vDPA devices, and if not, why not. */
@Command(name = "doctor", mixinStandardHelpOptions = true,
        description = {"Check whether this host can drive vhost-vdpa devices, and say why not.",
                       "Checks privileges, memlock, modules, device nodes and their backend features.",
                       "The exit code judges this host's kernel, not the fake backend: 0 when it can drive vDPA devices",
                       "(with the kernel backend: and the devices checked are usable), 8 when not, 3 for a DEV that does not",
                       "exist. The fake backend's checks are shown, simulated, and never change it. The first line says so."})
public final class DoctorCommand implements Callable<Integer>, ReadOnlyCommand {
    @Mixin
    CommandContext context;

    @Parameters(paramLabel = "DEV", arity = "0..*", description = "Devices to check (/dev/vhost-vdpa-N or vdpa names); default all.")
    List<String> devices = new ArrayList<>();

    @Option(names = "--memory", paramLabel = "SIZE", defaultValue = "1G",
            description = "Guest memory a rehearsal would map (pinned by PA-mode drivers such as mlx5), default ${DEFAULT-VALUE}.")
    String memory;

    @Override
    public Integer call() {
        CliContext ctx = context.get();
        HostFacts host = new HostFacts();
        long memoryBytes = Sizes.parse(memory, "--memory");
        List<Check> hostChecks = new HostChecks(host).run(memoryBytes);
        List<Check> checks = new ArrayList<>(hostChecks);
        boolean kernelVdpa = host.vdpaBusPresent() || host.charDriverRegistered("vhost-vdpa"); // this host's kernel, whatever the backend
        if (ctx.simulated()) {
            checks.add(Check.info("backend", "backend", ctx.requestedBackend() == BackendKind.AUTO
                    ? "this kernel has no vDPA: vdpactl uses the fake backend (every figure simulated)"
                    : "fake backend selected: the devices below are simulated"));
        } else {
            checks.add(Check.ok("backend", "backend", "the running kernel (real devices)"));
        }
        refuseBadArguments(ctx);
        checks.add(kernelFeatures(ctx, host));
        DeviceChecks dev = new DeviceChecks(ctx.syscalls(), host, ctx.simulated());
        List<String> nodes = dev.nodes(devices);
        if (nodes.isEmpty()) {
            checks.add(Check.fail("nodes", "vhost-vdpa device nodes", "no /dev/vhost-vdpa-* node",
                    "create a device (`vdpactl dev add NAME --mgmtdev ...`) and make sure vhost_vdpa is loaded and bound"));
        }
        for (String node : nodes) {
            checks.addAll(dev.check(node));
        }
        // the exit code judges this host's kernel: simulated devices say nothing about it
        boolean ready = (ctx.simulated() ? hostChecks : checks).stream().noneMatch(c -> c.status() == Check.Status.FAIL);
        String verdict = verdict(ready, ctx.simulated());
        ctx.printDocument(JsonDocument.DOCTOR, () -> {
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("ready", ready);
            doc.put("verdict", verdict);
            doc.put("simulated", ctx.simulated());
            doc.put("backend", ctx.backendFields(List.of()));
            doc.put("kernel_vdpa", kernelVdpa);
            doc.put("checks", checks);
            return doc;
        }, out -> print(out, verdict, ctx.simulated(), checks, ready));
        return ready ? ExitCode.OK.code() : ExitCode.NOT_READY.code();
    }

    /** The first line: what the exit code judges, and its value. */
    static String verdict(boolean ready, boolean simulated) {
        if (simulated) {
            return ready ? "host READY (exit 0): this host's kernel can drive vDPA devices; the fake backend's checks below are"
                    + " simulated and do not count"
                    : "host NOT READY (exit 8): this host's kernel cannot drive vDPA devices (FAIL lines below); the fake"
                    + " backend's checks are simulated and do not count";
        }
        return ready ? "host READY (exit 0): this host's kernel and the devices below can be driven"
                : "host NOT READY (exit 8): fix the FAIL lines below (this host's kernel and its devices)";
    }

    private static void print(PrintWriter out, String verdict, boolean simulated, List<Check> checks, boolean ready) {
        String columns = System.getenv("COLUMNS");
        int width = DoctorTable.terminalWidth(columns, columns == null || columns.isBlank() ? Terminal.stdoutColumns() : OptionalInt.empty());
        DoctorTable.wrap(verdict, width).forEach(out::println);
        new DoctorTable(width).print(out, checks);
        String last;
        if (ready) {
            last = simulated ? "ready: this host's kernel can drive vDPA devices; the devices above are simulated"
                    : "ready: this host can drive the devices above";
        } else if (simulated) {
            last = "not ready for real devices: fix the FAIL lines above; until then vdpactl uses the fake backend"
                    + " (the devices above are simulated)";
        } else {
            last = "not ready: fix the FAIL lines above";
        }
        DoctorTable.wrap(last, width).forEach(out::println);
    }

    /** The kernel's vhost-vdpa / vdpa feature set (fake profile, or the profile the running release should match). */
    private static Check kernelFeatures(CliContext ctx, HostFacts host) {
        String release = ctx.simulated() ? null : host.kernelRelease();
        var profile = KernelFeatures.profile(ctx.backend(), release);
        if (profile.isEmpty()) {
            return Check.info("kernel-features", "vhost-vdpa feature set", "unknown kernel release " + release);
        }
        var p = profile.get();
        String which = ctx.simulated() ? "Linux " + p.version() + " (fake kernel profile, --fake-kernel)"
                : "Linux " + release + " (checked against the " + p.version() + " profile; devices below say what they offer)";
        var absent = KernelFeatures.absent(p);
        if (absent.isEmpty()) {
            return Check.ok("kernel-features", "vhost-vdpa feature set", which + ": every ioctl and vdpa command vdpactl uses");
        }
        return Check.warn("kernel-features", "vhost-vdpa feature set", which + ": lacks " + String.join(", ", absent)
                + "; vdpactl falls back where it can (docs/kernel-profiles.md)",
                "a newer kernel gives RESUME, IOTLB_PERSIST and `vdpactl dev set`");
    }

    /**
     * A DEV that does not exist is exit 3, one that is not a vhost-vdpa device (a file, /dev/null)
     * exit 2: both are the caller's mistake, not an environment that is "not ready" (8).
     */
    private void refuseBadArguments(CliContext ctx) {
        for (String d : devices) {
            try {
                VhostDeviceNodes.resolve(ctx.syscalls(), d);
            } catch (VhostNodeException e) {
                throw CliFailure.from(e, e.getMessage());
            }
        }
    }
}
