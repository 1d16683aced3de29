package org.vdpactl.fake.kernel;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

import org.vdpactl.abi.KernelProfile;
import org.vdpactl.abi.KernelProfiles;
import org.vdpactl.abi.MacroValues;
import org.vdpactl.abi.UapiIoctl;
import org.vdpactl.abi.UapiVdpaCommand;
import org.vdpactl.abi.UapiBackendFeature;

/**
 * The fake's per-call support table, per kernel profile, in the manner of gVisor's syscall table: rendered
 * from the same facts the fake dispatches on ({@link KernelProfile}), so the table in docs/fake-kernel.md
 * cannot say what the fake does not do ({@code GeneratedDocBlocksTest} compares them).
 */
public final class SupportTable {
    private SupportTable() {
    }

    /**
     * One generated block by its id: "fake-calls" (docs/fake-kernel.md: {@link #markdown()}), or docs/kernel-profiles.md's
     * "profiles" (each profile's parent, aliases and source), "ioctls" (the ioctls any profile handles) and
     * "commands" (the vdpa family's commands).
     */
    public static String block(String id) {
        List<KernelProfile> kernels = KernelProfiles.all();
        StringBuilder b = new StringBuilder();
        switch (id) {
            case "fake-calls" -> b.append(markdown());
            case "profiles" -> {
                b.append("| profile | over its parent | aliases | read from |\n|---|---|---|---|\n");
                for (KernelProfile k : kernels) {
                    b.append("| `").append(k.version()).append('`')
                            .append(k == KernelProfiles.defaultProfile() ? " (default)" : "").append(" | ")
                            .append(KernelProfiles.parentOf(k.version()).map(v -> "`" + v + "`").orElse("–")).append(" | ")
                            .append(String.join(", ", k.aliases().stream().map(a -> "`" + a + "`").toList())).append(" | ")
                            .append(k.source()).append(" |\n");
                }
            }
            case "ioctls" -> {
                header(b, "ioctl", kernels);
                List<String> none = new ArrayList<>();
                for (UapiIoctl io : UapiIoctl.values()) {
                    if (kernels.stream().anyMatch(k -> k.hasIoctl(io))) {
                        row(b, io.name(), kernels, k -> k.hasIoctl(io), "**no**");
                    } else {
                        none.add("`" + io.name() + "`");
                    }
                }
                b.append("\nIn the headers, handled by no profile (the unknown-ioctl path below): ")
                        .append(String.join(", ", none)).append('.');
            }
            case "commands" -> {
                header(b, "command", kernels);
                for (UapiVdpaCommand c : UapiVdpaCommand.values()) {
                    row(b, c.name(), kernels, k -> k.hasCommand(c), "**no**");
                }
            }
            default -> throw new IllegalArgumentException("SupportTable has no block " + id);
        }
        return b.toString().stripTrailing();
    }

    /** The Markdown tables: vhost ioctls, vdpa netlink commands, SET_BACKEND_FEATURES bits. */
    public static String markdown() {
        List<KernelProfile> kernels = KernelProfiles.all();
        StringBuilder b = new StringBuilder();
        b.append("vhost-vdpa ioctls (`yes`: the release's ioctl path knows it, which may still refuse it as vhost-vdpa\n")
                .append("does, e.g. ENOTTY for the dirty log; `no`: it takes the unknown-ioctl path, which ends in ENOTTY after\n")
                .append("vhost's owner and vring-index checks):\n\n");
        header(b, "ioctl", kernels);
        for (UapiIoctl io : UapiIoctl.values()) {
            row(b, io.name(), kernels, k -> k.hasIoctl(io), "no");
        }
        b.append("\nvdpa generic-netlink commands (`no`: genetlink answers EOPNOTSUPP):\n\n");
        header(b, "command", kernels);
        for (UapiVdpaCommand c : UapiVdpaCommand.values()) {
            row(b, c.name(), kernels, k -> k.hasCommand(c), "no");
        }
        b.append("\nVHOST_SET_BACKEND_FEATURES (`no`: a mask with the bit is refused with EOPNOTSUPP; a device offers a bit\n")
                .append("only when its driver has the op):\n\n");
        header(b, "backend feature", kernels);
        for (UapiBackendFeature feature : UapiBackendFeature.values()) {
            String f = feature.name();
            long bit = feature.mask();
            row(b, f, kernels, k -> (k.acceptedBackendFeatures() & bit) != 0, "no");
        }
        b.append("\nvdpa netlink attributes parsed (VDPA_ATTR_MAX): ");
        for (KernelProfile k : kernels) {
            b.append(k.version()).append(' ').append(k.netlink().maxAttr()).append(k == kernels.getLast() ? "" : ", ");
        }
        b.append('.');
        return b.toString();
    }

    private static void header(StringBuilder b, String first, List<KernelProfile> kernels) {
        b.append("| ").append(first).append(" |");
        kernels.forEach(k -> b.append(' ').append(k.version()).append(" |"));
        b.append("\n|---|");
        kernels.forEach(k -> b.append(":---:|"));
        b.append('\n');
    }

    private static void row(StringBuilder b, String name, List<KernelProfile> kernels, Predicate<KernelProfile> has, String absent) {
        b.append("| `").append(name).append("` |");
        kernels.forEach(k -> b.append(' ').append(has.test(k) ? "yes" : absent).append(" |"));
        b.append('\n');
    }

    /** Prints the tables (for a look at them outside the docs). */
    public static void main(String[] args) {
        System.out.println(markdown());
    }
}
