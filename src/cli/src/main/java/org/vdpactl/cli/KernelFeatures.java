package org.vdpactl.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.vdpactl.abi.KernelProfile;
import org.vdpactl.abi.KernelProfiles;
import org.vdpactl.abi.UapiIoctl;
import org.vdpactl.mgmt.VdpaAttribute;
import org.vdpactl.mgmt.VdpaAttributeSupport;
import org.vdpactl.mgmt.VdpaCommand;
import org.vdpactl.netlink.GenlFamily;
import org.vdpactl.vhost.BackendFeature;
import org.vdpactl.vhost.BackendFeatures;
import org.vdpactl.vhost.VhostIoctl;

/**
 * What the kernel behind the CLI offers (the fake's profile, or for the running kernel the profile
 * of its release, docs/kernel-profiles.md), and what each missing vhost-vdpa feature costs the user.
 */
public final class KernelFeatures {
    /** Missing backend feature → what vdpactl does without it. */
    private static final Map<BackendFeature, String> COSTS = new LinkedHashMap<>();

    static {
        COSTS.put(BackendFeature.SUSPEND, "no SUSPEND: rehearse resets the device instead of suspending and reads the"
                + " ring state from guest memory (in-flight requests are lost, as with QEMU)");
        COSTS.put(BackendFeature.RESUME, "no RESUME: rehearse resets and restarts instead of resuming; a rolled-back"
                + " source is restarted from its saved state");
        COSTS.put(BackendFeature.IOTLB_PERSIST, "no IOTLB_PERSIST: a reset drops the device's memory map, so --premap on a"
                + " device that is its own destination is refused");
        COSTS.put(BackendFeature.IOTLB_ASID, "no IOTLB_ASID: one address space only (no shadow control queue)");
    }

    private KernelFeatures() {
    }

    /** The profile the backend speaks (fake) or is expected to match (kernel), if known. */
    public static Optional<KernelProfile> profile(Backend backend, String runningRelease) {
        return backend.fakeKernel().map(FakeKernelControl::kernelProfile).or(() -> KernelProfiles.forRelease(runningRelease));
    }

    /** One line per backend feature the device lacks, with its cost (empty when it has them all). */
    public static List<String> costs(BackendFeatures offered) {
        return missingBackendFeatures(offered).stream().map(MissingFeature::cost).toList();
    }

    /**
     * A backend feature the device lacks and what vdpactl does without it, as fields.
     *
     * @param feature its name ({@code SUSPEND})
     * @param cost    what it costs, a sentence for people
     */
    public record MissingFeature(String feature, String cost) {
    }

    /** The backend features the device lacks, each with its cost (empty when it has them all). */
    public static List<MissingFeature> missingBackendFeatures(BackendFeatures offered) {
        List<MissingFeature> out = new ArrayList<>();
        COSTS.forEach((f, cost) -> {
            if (!offered.has(f)) {
                out.add(new MissingFeature(f.name(), cost));
            }
        });
        return out;
    }

    /**
     * A vhost-vdpa ioctl or vdpa command a kernel profile lacks, as fields a program can branch on.
     *
     * @param name         the kernel's name ({@code VHOST_VDPA_SUSPEND}, {@code VDPA_CMD_DEV_VSTATS_GET})
     * @param kind         {@code ioctl} or {@code vdpa_command}
     * @param firstKernel  the first profiled Linux version that has it ("6.12")
     */
    public record Absent(String name, String kind, String firstKernel) {
        /** "VHOST_VDPA_RESUME (from Linux 6.12)": the line of schema version 1's {@code kernel.absent}. */
        public String line() {
            return name + " (from Linux " + firstKernel + ")";
        }
    }

    /** The vhost-vdpa ioctls and vdpa commands a profile lacks, each with the first profiled kernel that has it. */
    public static List<String> absent(KernelProfile p) {
        return absentCalls(p).stream().map(Absent::line).toList();
    }

    /** {@link #absent(KernelProfile)} as fields. */
    public static List<Absent> absentCalls(KernelProfile p) {
        List<Absent> out = new ArrayList<>();
        for (VhostIoctl io : VhostIoctl.values()) {
            if (!p.hasIoctl(io.uapi())) {
                KernelProfiles.firstWithIoctl(io.uapi()).ifPresent(first -> out.add(new Absent(io.kernelName(), "ioctl", first.version())));
            }
        }
        for (VdpaCommand c : VdpaCommand.values()) {
            if (c.uapi() != null && !p.hasCommand(c.uapi())) {
                KernelProfiles.firstWithCommand(c.uapi()).ifPresent(first -> out.add(new Absent(c.constantName(), "vdpa_command",
                        first.version())));
            }
        }
        return out;
    }

    /**
     * Which profiled kernels have the ioctl, as the kernel profiles say ("of the profiled kernels: 6.1, 6.12, 7.2"), for
     * an action that asks for a kernel with it: a typed list of versions went stale when a profile changed.
     */
    public static String profiledWith(UapiIoctl ioctl) {
        List<String> with = KernelProfiles.withIoctl(ioctl).stream().map(KernelProfile::version).toList();
        return with.isEmpty() ? "none of the profiled kernels " + String.join(", ", KernelProfiles.VERSIONS) + " has it"
                : "of the profiled kernels: " + String.join(", ", with);
    }

    /** "needs Linux 6.12 or later": the first profiled kernel with the command. */
    public static String missingCommand(VdpaCommand c, String what) {
        String first = KernelProfiles.firstWithCommand(c.uapi()).map(p -> "Linux " + p.version()).orElse("a newer kernel");
        return what + " needs " + c.constantName() + ", which this kernel's vdpa family lacks (first in " + first
                + " among " + String.join(", ", KernelProfiles.VERSIONS) + ")";
    }

    /**
     * A one-line refusal when a request would carry an attribute the kernel's vdpa family does not
     * parse (above its maxattr, which strict validation answers with EINVAL "Unknown attribute type").
     */
    public static Optional<String> unknownAttribute(GenlFamily family, List<VdpaAttribute> attributes) {
        return unknownAttribute(VdpaAttributeSupport.fromMaxAttr(family, "not asked"), VdpaCommand.DEV_NEW, attributes);
    }

    /**
     * A one-line refusal when a request of {@code command} would carry an attribute the kernel does
     * not accept for it, naming the attribute and the first profiled kernel whose vdpa_nl_policy has
     * it. With the policy dump this is exact (strict validation refuses attributes without a policy
     * entry: "Unsupported attribute" or "Unknown attribute type"); after a fallback only attributes
     * above maxattr are caught.
     */
    public static Optional<String> unknownAttribute(VdpaAttributeSupport support, VdpaCommand command,
                                                    List<VdpaAttribute> attributes) {
        for (VdpaAttribute a : attributes) {
            if (!support.accepts(command, a)) {
                String first = (support.source() == VdpaAttributeSupport.Source.POLICY_DUMP
                        ? KernelProfiles.firstAcceptingInRequests(a.number()) : KernelProfiles.firstParsing(a.number()))
                        .map(p -> "Linux " + p.version()).orElse("a newer kernel");
                String option = a.option() != null ? " (--" + a.option().replace('_', '-') + ")" : "";
                String why = support.source() == VdpaAttributeSupport.Source.POLICY_DUMP
                        ? "is not accepted by this kernel's " + command.constantName() + " (no entry in its policy dump)"
                        : "is not known to this kernel's vdpa family (maxattr " + support.family().maxAttr() + ")";
                return Optional.of(a.constantName() + option + " " + why + "; first in " + first);
            }
        }
        return Optional.empty();
    }
}
