package org.vdpactl.cli.mgmt;

import java.util.Optional;
import java.util.concurrent.Callable;

import org.vdpactl.cli.BackendKind;
import org.vdpactl.cli.CliFailure;
import org.vdpactl.cli.CommandContext;
import org.vdpactl.cli.CommandGroup;
import org.vdpactl.cli.ExitCode;
import org.vdpactl.cli.FakeKernelControl;
import org.vdpactl.mgmt.IprouteMacSyntax;
import org.vdpactl.sys.VdpaDeviceRules;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code vdpactl mgmtdev function set BUS/DEV [--hw-addr MAC] [--mtu N] [--link up|down]}: what an administrator
 * sets on the PCI function behind a hardware management device outside vdpa ({@code devlink port function set
 * ... hw_addr}, the vport MTU, the port's link), for the fake kernel. The next {@code dev add} on the function reads
 * it as mlx5_vdpa does; a link change is a port event for the devices on it. Kept in the fake's state file, so the
 * next vdpactl process finds it. A host has devlink and ip for this: on the kernel backend the command is refused.
 */
@Command(name = "function", mixinStandardHelpOptions = true,
        description = "The PCI function behind a hardware management device (fake backend: devlink port function set).",
        subcommands = {MgmtdevFunctionCommand.SetCommand.class})
public final class MgmtdevFunctionCommand extends CommandGroup {

    /** {@code mgmtdev function set}. */
    @Command(name = "set", mixinStandardHelpOptions = true,
            description = {"Set the function's MAC, MTU or link, as devlink port function set does on a host (fake backend only).",
                "The next dev add without --mac gets the MAC (and F_MAC), without --mtu the MTU; --link down/up is a port event."})
    static final class SetCommand implements Callable<Integer> {
        @Mixin
        CommandContext context;

        @Parameters(paramLabel = "BUS/DEV", description = "A hardware management device, e.g. pci/0000:08:00.2.")
        String handle;

        @Option(names = "--hw-addr", paramLabel = "MAC",
                description = "The function's MAC (devlink's hw_addr), unicast, or 00:00:00:00:00:00 for none.")
        String hwAddr;

        @Option(names = "--mtu", paramLabel = "N", description = "The function's vport MTU, 68 to 65535.")
        Integer mtu;

        @Option(names = "--link", paramLabel = "up|down", description = "The port's link.")
        String link;

        @Override
        public Integer call() {
            if (hwAddr == null && mtu == null && link == null) {
                throw new IllegalArgumentException("mgmtdev function set: give --hw-addr, --mtu or --link");
            }
            byte[] mac = hwAddr == null ? null : functionMac(hwAddr);
            if (mtu != null && VdpaDeviceRules.mtuProblem(mtu) != null) {
                throw new IllegalArgumentException("--mtu " + mtu + " " + VdpaDeviceRules.mtuProblem(mtu));
            }
            Boolean up = link == null ? null : switch (link) {
                case "up" -> true;
                case "down" -> false;
                default -> throw new IllegalArgumentException("--link " + VdpaDeviceRules.quotedName(link) + ": use up or down");
            };
            // refused before a kernel backend is opened: the answer does not depend on the host's vdpa
            FakeKernelControl fake = (context.get().requestedBackend() == BackendKind.KERNEL ? Optional.<FakeKernelControl>empty()
                    : context.get().backend().fakeKernel()).orElseThrow(() -> new CliFailure(ExitCode.NOT_SUPPORTED,
                    "mgmtdev function set changes the fake kernel's functions only; on a host use devlink port function set"
                            + " DEV/PORT hw_addr MAC, or ip link set DEV mtu N / vf N state"));
            fake.setFunction(handle, mac, mtu, up);
            context.get().saveState();
            return 0;
        }

        /** A MAC as iproute2 reads it; multicast refused (a function's address), all zeros clears it. */
        private static byte[] functionMac(String text) {
            byte[] octets = IprouteMacSyntax.read(text).address().octets();
            if ((octets[0] & 1) != 0) {
                throw new IllegalArgumentException("--hw-addr " + text + " is a multicast address");
            }
            return octets;
        }
    }
}
