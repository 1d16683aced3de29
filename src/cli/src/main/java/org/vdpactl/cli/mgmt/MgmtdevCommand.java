package org.vdpactl.cli.mgmt;

import java.util.List;
import java.util.concurrent.Callable;
import org.vdpactl.cli.CliContext;
import org.vdpactl.cli.CommandContext;
import org.vdpactl.mgmt.IprouteJson;
import org.vdpactl.mgmt.IprouteText;
import org.vdpactl.mgmt.MgmtDevInfo;
import org.vdpactl.mgmt.VdpaNetlink;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code vdpactl mgmtdev list|show [BUS/DEV]}, like iproute2's {@code vdpa mgmtdev show}. */
@Command(name = "mgmtdev", mixinStandardHelpOptions = true,
        description = "vDPA management devices (drivers that can create devices).",
        subcommands = {MgmtdevCommand.ListCommand.class, MgmtdevCommand.ShowCommand.class})
public final class MgmtdevCommand implements Runnable {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    /** A group without its subcommand is a usage error (exit 2): scripts must not mistake the usage for data. */
    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getErr());
        throw new picocli.CommandLine.ParameterException(spec.commandLine(), "missing subcommand: give one of "
                + String.join(", ", spec.subcommands().keySet().stream().filter(n -> !n.equals("ls")).toList()));
    }

    static int print(CliContext ctx, List<MgmtDevInfo> list) {
        ctx.printData(() -> IprouteJson.mgmtdevs(list), out -> out.print(IprouteText.mgmtdevs(list)));
        return 0;
    }

    /** {@code mgmtdev list}. */
    @Command(name = "list", aliases = "ls", mixinStandardHelpOptions = true, description = "List every management device.")
    static final class ListCommand implements Callable<Integer>, org.vdpactl.cli.ReadOnlyCommand {
        @Mixin
        CommandContext context;

        @Override
        public Integer call() {
            try (VdpaNetlink nl = Netlink.open(context.get())) {
                return print(context.get(), nl.mgmtDevices());
            }
        }
    }

    /** {@code mgmtdev show [HANDLE]}. */
    @Command(name = "show", mixinStandardHelpOptions = true, description = "Show one management device (or all).")
    static final class ShowCommand implements Callable<Integer>, org.vdpactl.cli.ReadOnlyCommand {
        @Mixin
        CommandContext context;

        @Parameters(paramLabel = "BUS/DEV", arity = "0..1", description = "e.g. vdpasim_net or pci/0000:08:00.2")
        String handle;

        @Override
        public Integer call() {
            try (VdpaNetlink nl = Netlink.open(context.get())) {
                return print(context.get(), handle == null ? nl.mgmtDevices() : List.of(nl.mgmtDevice(handle)));
            }
        }
    }
}
