package org.vdpactl.cli.migrate;

import org.vdpactl.cli.CommandGroup;
import picocli.CommandLine.Command;

/** {@code vdpactl migrate ...}: will a VM's vDPA NICs survive a live migration to that host, and on which path. */
@Command(name = "migrate", mixinStandardHelpOptions = true,
        description = {"Migration preflight: this host's facts, and the check of a source against a destination.",
                       "See docs/migrate.md."},
        subcommands = {FactsCommand.class, CheckCommand.class})
public final class MigrateCommand extends CommandGroup {
}
