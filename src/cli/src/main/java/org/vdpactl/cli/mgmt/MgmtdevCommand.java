package org.vdpactl.cli.mgmt;

import java.util.List;
import java.util.concurrent.Callable;
import org.vdpactl.cli.CommandContext;
import org.vdpactl.cli.CommandGroup;
import org.vdpactl.cli.SubcommandTable;
import org.vdpactl.cli.ReadOnlyCommand;
import org.vdpactl.mgmt.IprouteJson;
import org.vdpactl.mgmt.IprouteText;
import org.vdpactl.mgmt.MgmtDevInfo;
import org.vdpactl.mgmt.VdpaNetlink;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code vdpactl mgmtdev list|show [BUS/DEV]}, like iproute2's {@code vdpa mgmtdev show}; {@code mgmtdev function set}
 * is the fake's devlink ({@link MgmtdevFunctionCommand}).
 */
@Command(name = "mgmtdev", mixinStandardHelpOptions = true,
        description = "vDPA management devices (drivers that can create devices).")
public final class MgmtdevCommand extends CommandGroup implements SubcommandTable {
    private static final NetlinkListing<MgmtDevInfo> MGMTDEVS = new NetlinkListing<>(VdpaNetlink::mgmtDevices,
            VdpaNetlink::mgmtDevice, IprouteJson::mgmtdevs, IprouteText::mgmtdevs);

    @Override
    public List<String> subcommandNames() {
        return List.of("list", "show", "function");
    }

    @Override
    public Object newSubcommand(String word) {
        return switch (word) {
            case "list", "ls" -> new ListCommand();
            case "show" -> new ShowCommand();
            case "function" -> new MgmtdevFunctionCommand();
            default -> null;
        };
    }

    /** {@code mgmtdev list}. */
    @Command(name = "list", aliases = "ls", mixinStandardHelpOptions = true, description = "List every management device.")
    static final class ListCommand implements Callable<Integer>, ReadOnlyCommand {
        @Mixin
        CommandContext context;

        @Override
        public Integer call() {
            return MGMTDEVS.show(context.get(), null);
        }
    }

    /** {@code mgmtdev show [HANDLE]}. */
    @Command(name = "show", mixinStandardHelpOptions = true, description = "Show one management device (or all).")
    static final class ShowCommand implements Callable<Integer>, ReadOnlyCommand {
        @Mixin
        CommandContext context;

        @Parameters(paramLabel = "BUS/DEV", arity = "0..1", description = "e.g. vdpasim_net or pci/0000:08:00.2")
        String handle;

        @Override
        public Integer call() {
            return MGMTDEVS.show(context.get(), handle);
        }
    }
}
