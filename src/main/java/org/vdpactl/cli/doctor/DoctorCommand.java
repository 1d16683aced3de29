package org.vdpactl.cli.doctor;

import org.vdpactl.cli.CommandContext;
import org.vdpactl.cli.KernelFeatures;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.vdpactl.cli.BackendKind;
import org.vdpactl.cli.CliContext;
import org.vdpactl.cli.ExitCode;
import org.vdpactl.cli.Sizes;
import org.vdpactl.report.JsonDocument;
import org.vdpactl.vhost.MemlockLimit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code vdpactl doctor}: can this host drive real vDPA devices, and if not, why not. */
@Command(name = "doctor", mixinStandardHelpOptions = true,
        description = {"Check whether this host can drive vhost-vdpa devices, and say why not.",
                       "Checks privileges, memlock, modules, device nodes and their backend features.",
                       "Exit 0 when ready, 8 when not, 3 for a DEV that does not exist."})
public final class DoctorCommand implements Callable<Integer> {
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
        List<Check> checks = new ArrayList<>(new HostChecks(host).run(memoryBytes));
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
        boolean ready = checks.stream().noneMatch(c -> c.status() == Check.Status.FAIL);
        ctx.printDocument(JsonDocument.DOCTOR, () -> {
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("ready", ready);
            doc.put("simulated", ctx.simulated());
            doc.put("backend", ctx.backendFields(List.of()));
            doc.put("kernel_vdpa", kernelVdpa);
            doc.put("checks", checks);
            return doc;
        }, out -> print(out, ctx.simulated(), checks, ready));
        return ready ? ExitCode.OK.code() : ExitCode.NOT_READY.code();
    }

    private static void print(PrintWriter out, boolean simulated, List<Check> checks, boolean ready) {
        for (Check c : checks) {
            out.printf("%-5s %-34s %s%n", c.status(), c.title(), c.detail());
            if (c.hint() != null && c.status() != Check.Status.OK) {
                out.printf("      %-34s fix: %s%n", "", c.hint());
            }
        }
        if (ready) {
            out.println(simulated ? "ready: the simulated devices above can be used (no real vDPA device is involved)"
                    : "ready: this host can drive the devices above");
        } else if (simulated) {
            out.println("not ready for real devices: fix the FAIL lines above; until then vdpactl uses the fake backend"
                    + " (the devices above are simulated)");
        } else {
            out.println("not ready: fix the FAIL lines above");
        }
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
                org.vdpactl.vhost.VhostDeviceNodes.resolve(ctx.syscalls(), d);
            } catch (org.vdpactl.vhost.VhostNodeException e) {
                boolean missing = e.getMessage().contains("no vDPA device") || e.getMessage().contains("cannot stat");
                throw new org.vdpactl.cli.CliFailure(missing ? ExitCode.NOT_FOUND : ExitCode.USAGE, e.getMessage(), e);
            }
        }
    }

    /** For --memlock hints elsewhere. */
    static String memlockHint(long bytes) {
        return MemlockLimit.hint(bytes);
    }
}
