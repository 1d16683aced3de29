package org.vdpactl.cli.mgmt;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vdpactl.cli.CommandContext;
import org.vdpactl.cli.CommandGroup;
import org.vdpactl.cli.ReadOnlyCommand;
import org.vdpactl.cli.SubcommandTable;
import org.vdpactl.mgmt.VdpaCommand;

import org.vdpactl.mgmt.VdpaAttribute;

import org.vdpactl.cli.KernelFeatures;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.vdpactl.cli.CliContext;
import org.vdpactl.cli.CliFailure;
import org.vdpactl.cli.ExitCode;
import org.vdpactl.cli.GroupedInBatch;
import org.vdpactl.mgmt.DevConfig;
import org.vdpactl.mgmt.DeviceSpec;
import org.vdpactl.mgmt.IprouteJson;
import org.vdpactl.mgmt.IprouteText;
import org.vdpactl.mgmt.IprouteMacSyntax;
import org.vdpactl.mgmt.MacAddress;
import org.vdpactl.mgmt.MgmtDevInfo;
import org.vdpactl.mgmt.ShownNames;
import org.vdpactl.mgmt.VdpaDevInfo;
import org.vdpactl.mgmt.VdpaNetlink;
import org.vdpactl.mgmt.VendorStats;
import org.vdpactl.sys.VdpaDeviceRules;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import org.vdpactl.vhost.VirtioDeviceId;

/** {@code vdpactl dev ...}: vDPA devices over the vdpa netlink family, like iproute2's {@code vdpa dev}. */
@Command(name = "dev", mixinStandardHelpOptions = true,
        description = "vDPA devices: list, show, add, del, config, vstats, set.")
public final class DevCommand extends CommandGroup implements ReadOnlyCommand, SubcommandTable {
    private static final Logger LOG = LoggerFactory.getLogger(DevCommand.class);

    @Mixin
    CommandContext context;

    @Override
    public List<String> subcommandNames() {
        return List.of("list", "show", "add", "del", "config", "vstats", "set");
    }

    @Override
    public Object newSubcommand(String word) {
        return switch (word) {
            case "list", "ls" -> new ListCommand();
            case "show" -> new ShowCommand();
            case "add" -> new AddCommand();
            case "del" -> new DevDelCommand();
            case "config" -> new ConfigCommand();
            case "vstats" -> new VstatsCommand();
            case "set" -> new SetCommand();
            default -> null;
        };
    }

    /** {@code dev} alone shows every device, as iproute2's {@code vdpa dev} does (read-only, like dev show). */
    @Override
    public void run() {
        DEVICES.show(context.get(), null);
    }

    /**
     * The --mac value read as iproute2's vdpa reads it; a form that can hide a typo (such as "02:00",
     * zero-filled) is taken, as there, but named in one warning line so that the operator sees the bytes.
     */
    static MacAddress macOption(String text) {
        IprouteMacSyntax.Reading r = IprouteMacSyntax.read(text);
        if (r.unusualForm() != null) {
            LOG.warn("vdpactl: warning: MAC '{}' read as {}, as iproute2's vdpa does ({})", text, r.address(), r.unusualForm());
        }
        return unicast(r.address(), "--mac");
    }

    /**
     * A net device's own address must be unicast and not zero (the kernel's is_valid_ether_addr):
     * a guest would never receive its frames otherwise.
     */
    static MacAddress unicast(MacAddress m, String option) {
        String why = VdpaDeviceRules.unicastMacProblem(m.octets());
        if (why != null) {
            throw new IllegalArgumentException(option + " " + m + " " + why);
        }
        return m;
    }

    /** Refuses a name {@link org.vdpactl.sys.VdpaDeviceRules#nameProblem} refuses (the state file's load uses the same rule). */
    static void refuseUnusableName(String name) {
        String why = VdpaDeviceRules.nameProblem(name);
        if (why != null) {
            throw new IllegalArgumentException("device name " + VdpaDeviceRules.quotedName(name) + " " + why);
        }
    }

    /** The devices; names that look alike (an NFC name and its NFD twin) are warned about, since text cannot show it. */
    private static final NetlinkListing<VdpaDevInfo> DEVICES = new NetlinkListing<>(VdpaNetlink::devices,
            VdpaNetlink::device, IprouteJson::devs, IprouteText::devs,
            devs -> ShownNames.twinWarnings(devs.stream().map(VdpaDevInfo::name).toList()));

    /** {@code dev list}. */
    @Command(name = "list", aliases = "ls", mixinStandardHelpOptions = true, description = "List the vDPA devices.")
    static final class ListCommand implements Callable<Integer>, ReadOnlyCommand {
        @Mixin
        CommandContext context;

        @Override
        public Integer call() {
            return DEVICES.show(context.get(), null);
        }
    }

    /** {@code dev show [NAME]}. */
    @Command(name = "show", mixinStandardHelpOptions = true, description = "Show one vDPA device (or all).")
    static final class ShowCommand implements Callable<Integer>, ReadOnlyCommand {
        @Mixin
        CommandContext context;

        @Parameters(paramLabel = "NAME", arity = "0..1", description = "Device name (default: every device).")
        String name;

        @Override
        public Integer call() {
            return DEVICES.show(context.get(), name);
        }
    }

    /** {@code dev add NAME --mgmtdev BUS/DEV [...]}. */
    @Command(name = "add", mixinStandardHelpOptions = true, description = "Create a vDPA device (needs CAP_NET_ADMIN).")
    static final class AddCommand implements Callable<Integer>, GroupedInBatch {
        @Mixin
        CommandContext context;

        @Parameters(paramLabel = "NAME", description = "Device name (global, like vdpa0).")
        String name;

        @Option(names = "--mgmtdev", required = true, paramLabel = "BUS/DEV", description = "e.g. vdpasim_net or pci/0000:08:00.2")
        String mgmtdev;

        @Option(names = "--mac", paramLabel = "MAC",
                description = "MAC address of a net device, like 02:00:00:00:00:07 (unicast; the config space's mac).")
        String mac;

        @Option(names = "--mtu", paramLabel = "N", description = "MTU of a net device, 68 to 65535 (the config space's mtu).")
        Integer mtu;

        @Option(names = "--max-vqp", paramLabel = "N", description = "Maximum virtqueue pairs (net devices).")
        Integer maxVqp;

        @Option(names = "--features", paramLabel = "HEX|NAMES", description = "Device features: 0x... or names like VERSION_1,ACCESS_PLATFORM,MAC.")
        String features;

        @Override
        public Integer call() {
            refuseUnusableName(name);
            DeviceSpec spec = DeviceSpec.of(name, mgmtdev);
            if (mac != null) {
                spec = spec.withMac(macOption(mac));
            }
            if (mtu != null) {
                String why = VdpaDeviceRules.mtuProblem(mtu);
                if (why != null) {
                    throw new IllegalArgumentException("--mtu " + mtu + " " + why);
                }
                spec = spec.withMtu(mtu);
            }
            try (VdpaNetlink nl = Netlink.open(context.get())) {
                MgmtDevInfo m = nl.mgmtDevice(mgmtdev);
                if (maxVqp != null) {
                    checkMaxVqp(m);
                    spec = spec.withMaxVqPairs(maxVqp);
                }
                if (features != null) {
                    int id = m.supportsClass(VirtioDeviceId.NET.id()) ? VirtioDeviceId.NET.id() : VirtioDeviceId.BLOCK.id();
                    spec = spec.withDeviceFeatures(FeatureArgument.parse(features, id));
                }
                var unknown = KernelFeatures.unknownAttribute(nl.attributeSupport(), VdpaCommand.DEV_NEW, provisioned(spec));
                if (unknown.isPresent()) {
                    throw new CliFailure(ExitCode.NOT_SUPPORTED, "dev add: " + unknown.get());
                }
                nl.addDevice(spec);
                context.get().saveState();
                if (!context.get().json()) {
                    context.get().err().println("vdpactl: created " + name + " on " + m.handle());
                }
                return DEVICES.print(context.get(), List.of(nl.device(name)));
            }
        }

        private void checkMaxVqp(MgmtDevInfo m) {
            if (maxVqp < 1 || maxVqp > 0x8000) {
                throw new IllegalArgumentException("--max-vqp " + maxVqp + " is out of range (1 to 32768)");
            }
            Integer maxVqs = m.maxSupportedVqs();
            if (maxVqs != null && maxVqs > 0 && m.supportsClass(VirtioDeviceId.NET.id()) && 2L * maxVqp + 1 > Integer.toUnsignedLong(maxVqs)) {
                throw new IllegalArgumentException("--max-vqp " + maxVqp + " exceeds what " + m.handle() + " supports ("
                        + (Integer.toUnsignedLong(maxVqs) - 1) / 2 + " pairs: max_supported_vqs " + Integer.toUnsignedLong(maxVqs) + ")");
            }
        }
    }

    /** {@code dev config [show] [NAME]}. */
    @Command(name = "config", mixinStandardHelpOptions = true, description = {"Show device configuration (like vdpa dev config show).",
            "iproute2's form works too: dev config show [NAME]."})
    static final class ConfigCommand implements Callable<Integer>, ReadOnlyCommand {
        @Mixin
        CommandContext context;

        @Parameters(paramLabel = "NAME", arity = "0..2", description = "Device name (default: every device), after an optional 'show'.")
        List<String> words = new ArrayList<>();

        @Override
        public Integer call() {
            List<String> rest = IprouteWords.withoutShow(words);
            if (rest.size() > 1) {
                throw new IllegalArgumentException("dev config takes one device name, got " + String.join(" ", rest));
            }
            String name = rest.isEmpty() ? null : rest.getFirst();
            CliContext ctx = context.get();
            try (VdpaNetlink nl = Netlink.open(context.get())) {
                List<DevConfig> configs = name == null ? nl.configs() : List.of(nl.config(name));
                ctx.printData(() -> IprouteJson.configs(configs), out -> out.print(IprouteText.configs(configs)));
                return 0;
            }
        }
    }

    /** {@code dev vstats NAME --qidx N | --all}, or iproute2's {@code dev vstats show NAME qidx N}. */
    @Command(name = "vstats", mixinStandardHelpOptions = true, description = {"Vendor statistics of one queue, or of all queues.",
            "iproute2's form works too: dev vstats show NAME qidx N."})
    static final class VstatsCommand implements Callable<Integer>, ReadOnlyCommand {
        @Mixin
        CommandContext context;

        @Parameters(paramLabel = "NAME", arity = "1..4", description = "Device name, after an optional 'show', then optionally qidx N.")
        List<String> words = new ArrayList<>();

        @Option(names = "--qidx", paramLabel = "N", description = "Queue index.")
        Integer qidx;

        @Option(names = "--all", description = "Every queue of the device.")
        boolean all;

        @Override
        public Integer call() {
            List<String> rest = IprouteWords.mutable(IprouteWords.withoutShow(words));
            String keyword = IprouteWords.take(rest, "qidx");
            if (keyword != null) {
                if (qidx != null) {
                    throw new IllegalArgumentException("give the queue once: qidx N or --qidx N");
                }
                try {
                    qidx = Integer.parseInt(keyword);
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("qidx must be a number, got '" + keyword + "'");
                }
            }
            if (rest.size() != 1) {
                throw new IllegalArgumentException("dev vstats takes one device name, got " + (rest.isEmpty() ? "none" : String.join(" ", rest)));
            }
            String name = rest.getFirst();
            if ((qidx == null) == !all) {
                throw new IllegalArgumentException("give --qidx N or --all");
            }
            if (qidx != null && qidx < 0) {
                throw new IllegalArgumentException("--qidx must not be negative, got " + qidx);
            }
            CliContext ctx = context.get();
            try (VdpaNetlink nl = Netlink.open(context.get())) {
                List<VendorStats> stats = new ArrayList<>();
                if (all) {
                    VdpaDevInfo d = nl.device(name);
                    int n = d.maxVqs() == null ? 0 : d.maxVqs();
                    for (int q = 0; q < n; q++) {
                        stats.add(nl.vendorStats(name, q));
                    }
                } else {
                    stats.add(nl.vendorStats(name, qidx));
                }
                for (VendorStats s : stats) {
                    ctx.printData(() -> IprouteJson.vstats(s), out -> out.print(IprouteText.vstats(s)));
                }
                return 0;
            }
        }
    }

    /** {@code dev set NAME --mac MAC}. */
    @Command(name = "set", mixinStandardHelpOptions = true, description = "Change a device attribute (MAC; Linux 6.12+).")
    static final class SetCommand implements Callable<Integer> {
        @Mixin
        CommandContext context;

        @Parameters(paramLabel = "NAME", description = "Device name.")
        String name;

        @Option(names = "--mac", required = true, paramLabel = "MAC", description = "New MAC address, like 02:00:00:00:00:08 (unicast).")
        String mac;

        @Override
        public Integer call() {
            MacAddress m = macOption(mac);
            try (VdpaNetlink nl = Netlink.open(context.get())) {
                if (!nl.family().supports(VdpaCommand.DEV_ATTR_SET.number())) {
                    throw new CliFailure(ExitCode.NOT_SUPPORTED, KernelFeatures.missingCommand(VdpaCommand.DEV_ATTR_SET, "dev set"));
                }
                var warning = nl.setMacAddress(name, m);
                context.get().saveState();
                if (warning.isPresent()) {
                    throw new CliFailure(ExitCode.NOT_SUPPORTED, "the kernel accepted but ignored the request: " + warning.get());
                }
                return 0;
            }
        }
    }

    /** The provisioning attributes a DEV_NEW of this spec carries. */
    static List<VdpaAttribute> provisioned(DeviceSpec spec) {
        List<VdpaAttribute> out = new ArrayList<>();
        if (spec.mac() != null) {
            out.add(VdpaAttribute.DEV_NET_CFG_MACADDR);
        }
        if (spec.mtu() != null) {
            out.add(VdpaAttribute.DEV_NET_CFG_MTU);
        }
        if (spec.maxVqPairs() != null) {
            out.add(VdpaAttribute.DEV_NET_CFG_MAX_VQP);
        }
        if (spec.deviceFeatures() != null) {
            out.add(VdpaAttribute.DEV_FEATURES);
        }
        return out;
    }
}
