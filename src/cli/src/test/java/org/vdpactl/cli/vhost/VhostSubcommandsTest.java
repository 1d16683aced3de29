package org.vdpactl.cli.vhost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.util.List;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * A vhost command that only hands its arguments to a runner is a class nested in {@link VhostCommand}: adding one
 * (a new device ioctl's command) edits that one file, its class and its entry in {@code subcommands} (issue 33 made
 * them command methods, which needed no entry; picocli builds a command method's model only from its annotations at
 * run time, and the command line's models are written down at build time, so they are classes again). The commands
 * keep their names, order, parameters and options.
 */
class VhostSubcommandsTest {

    @Test
    void suspendAndResumeAreNestedCommandsInTheirOrder() {
        CommandLine vhost = new CommandLine(new VhostCommand());
        // the order --help lists them, as it was: info, then resume and suspend sorted by name
        assertEquals(List.of("info", "resume", "suspend"), List.copyOf(vhost.getSubcommands().keySet()));
        for (String name : List.of("suspend", "resume")) {
            CommandSpec spec = vhost.getSubcommands().get(name).getCommandSpec();
            assertEquals(VhostCommand.class, spec.userObject().getClass().getEnclosingClass(), name + ": a class of its own file");
            assertNotNull(spec.findOption("--fd"), name);
            assertEquals("DEV", spec.positionalParameters().getFirst().paramLabel(), name);
            assertEquals("0..*", spec.positionalParameters().getFirst().arity().toString(), name);
        }
        assertNotNull(vhost.getSubcommands().get("suspend").getCommandSpec().findOption("--and-resume"));
        assertEquals(null, vhost.getSubcommands().get("resume").getCommandSpec().findOption("--and-resume"));
    }
}
