package org.vdpactl.testkit;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.vdpactl.abi.KernelProfiles;
import org.vdpactl.fake.fault.FaultRule;
import org.vdpactl.fake.fault.FaultRuleException;
import org.vdpactl.fake.mlx5.Mlx5Presets;
import org.vdpactl.mgmt.MacAddress;
import org.vdpactl.sys.Errno;
import org.vdpactl.sys.VdpaDeviceRules;

/**
 * Refuses a {@link KernelSpec} that no kernel could give, before any kernel is built or contacted: what the
 * kernel itself would refuse (an MTU below 68, a name sysfs cannot hold), what the fake cannot model (a preset
 * on a simulator), and what would silently do nothing (a fault rule for a call or device that never occurs).
 * The same check runs on the fake and under the real-kernel opt-in, so a spec error is reported as the spec
 * error on both.
 */
final class KernelSpecCheck {
    /** The management devices a {@link Device} can name. */
    static final List<String> MGMTDEVS = List.of("vdpasim_net", "vdpasim_blk", "mlx5");
    /** The fake's default inventory, which a spec without devices gets (fault rules may name these). */
    static final List<String> DEFAULT_DEVICES = List.of("vdpa0", "vdpa1", "mlx5-0", "mlx5-1", "mlx5-2", "mlx5-3");
    /** VDPA_ATTR_DEV_NET_CFG_MAX_VQP: 1 to 0x8000 queue pairs (the kernel's policy). */
    private static final int MAX_VQ_PAIRS = 0x8000;
    /** MAX_ERRNO of the kernel. */
    private static final int MAX_ERRNO = 4095;

    private KernelSpecCheck() {
    }

    /**
     * @param origin where the spec came from, for the message ("@FakeKernelTest on FooTest.bar")
     * @throws ExtensionConfigurationException naming every problem
     */
    static void check(KernelSpec spec, String origin) {
        List<String> problems = problems(spec);
        if (!problems.isEmpty()) {
            throw new ExtensionConfigurationException(origin + " cannot be used: " + String.join("; ", problems));
        }
    }

    static List<String> problems(KernelSpec spec) {
        List<String> out = new ArrayList<>();
        if (KernelProfiles.byName(spec.kernel()).isEmpty()) {
            out.add("kernel = \"" + spec.kernel() + "\" is not a release the fake speaks: " + KernelProfiles.accepted());
        }
        Set<String> names = new HashSet<>();
        for (KernelSpec.DeviceSpec d : spec.devices()) {
            String at = "@Device(name = " + VdpaDeviceRules.quotedName(d.name()) + ")";
            String nameProblem = VdpaDeviceRules.nameProblem(d.name());
            if (nameProblem != null) {
                out.add(at + ": the name " + nameProblem);
            }
            if (!names.add(d.name())) {
                out.add(at + " is declared twice: device names are unique in a kernel");
            }
            if (!MGMTDEVS.contains(d.mgmtdev())) {
                out.add(at + ": mgmtdev = \"" + d.mgmtdev() + "\" is not one of " + String.join(", ", MGMTDEVS));
            }
            if (d.preset() != null && !d.mgmtdev().equals("mlx5")) {
                out.add(at + ": preset = \"" + d.preset() + "\" is for mlx5 devices; " + d.mgmtdev() + " has no latency presets");
            } else if (d.preset() != null && !Mlx5Presets.names().contains(d.preset())) {
                out.add(at + ": preset = \"" + d.preset() + "\" is not one of " + String.join(", ", Mlx5Presets.names()));
            }
            if (d.mac() != null) {
                String why;
                try {
                    why = VdpaDeviceRules.unicastMacProblem(MacAddress.parse(d.mac()).octets());
                } catch (IllegalArgumentException e) {
                    why = "is not a MAC address xx:xx:xx:xx:xx:xx";
                }
                if (why != null) {
                    out.add(at + ": mac = \"" + d.mac() + "\" " + why);
                }
            }
            if (d.mtu() != null && VdpaDeviceRules.mtuProblem(d.mtu()) != null) {
                out.add(at + ": mtu = " + d.mtu() + " " + VdpaDeviceRules.mtuProblem(d.mtu()) + ", as the kernel's netlink policy answers (EINVAL)");
            }
            if (d.maxVqPairs() != null && (d.maxVqPairs() < 1 || d.maxVqPairs() > MAX_VQ_PAIRS)) {
                out.add(at + ": maxVqPairs = " + d.maxVqPairs() + " is out of range (1 to " + MAX_VQ_PAIRS + ")");
            }
            if (d.mgmtdev().equals("vdpasim_blk") && (d.mac() != null || d.mtu() != null || d.maxVqPairs() != null)) {
                out.add(at + ": a vdpasim_blk device takes no MAC, MTU or queue pairs (dev add answers EOPNOTSUPP)");
            }
        }
        List<String> present = spec.devices().isEmpty() ? DEFAULT_DEVICES
                : spec.devices().stream().map(KernelSpec.DeviceSpec::name).toList();
        for (KernelSpec.FaultSpec f : spec.faults()) {
            String at = "@Fault(device = \"" + f.device() + "\", call = \"" + f.call() + "\")";
            int errno = Errno.valueOf(f.errno());
            if (errno <= 0 || errno > MAX_ERRNO || Errno.name(errno).equals("E" + errno)) {
                out.add(at + ": errno = \"" + f.errno() + "\" is not a Linux errno (a name like \"EIO\")");
                errno = Errno.EIO; // report the rule's other problems too
            }
            try {
                FaultRule.errnoAt(f.device(), f.call(), f.occurrence(), errno);
            } catch (FaultRuleException e) {
                out.add(at + ": " + e.getMessage().replaceFirst("^invalid fault rule [^:]*: ", ""));
            }
            if (present.stream().noneMatch(glob(f.device()).asMatchPredicate())) {
                out.add(at + ": no device of the test matches \"" + f.device() + "\" (present: " + String.join(", ", present)
                        + "), so the rule could never fire; for a device the test creates itself, add the rule when it"
                        + " exists: kernel.faults().addRule(FaultRule.errnoAt(...))");
            }
        }
        return out;
    }

    private static Pattern glob(String pattern) {
        return Pattern.compile(("\\Q" + pattern + "\\E").replace("*", "\\E.*\\Q"));
    }
}
