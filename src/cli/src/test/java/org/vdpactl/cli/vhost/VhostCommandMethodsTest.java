package org.vdpactl.cli.vhost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Method;
import java.util.List;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;

/**
 * A vhost command that only hands its arguments to a runner is a command method of {@link VhostCommand}, which
 * picocli registers by itself: adding one (a new device ioctl's command) edits one file and no subcommand list
 * (issue 33). The commands keep their names, parameters and options.
 */
class VhostCommandMethodsTest {

    @Test
    void suspendAndResumeAreCommandMethodsThatNeedNoRegistration() {
        CommandLine vhost = new CommandLine(new VhostCommand());
        // annotated subcommands first, then the command methods sorted by name: a stable order
        assertEquals(List.of("info", "resume", "suspend"), List.copyOf(vhost.getSubcommands().keySet()));
        assertEquals(List.of(VhostInfoCommand.class), List.of(VhostCommand.class.getAnnotation(Command.class).subcommands()),
                "a runner's command is listed again");
        for (String name : List.of("suspend", "resume")) {
            CommandSpec spec = vhost.getSubcommands().get(name).getCommandSpec();
            assertTrue(spec.userObject() instanceof Method, name + ": a class of its own again");
            assertNotNull(spec.findOption("--fd"), name);
            assertEquals("DEV", spec.positionalParameters().getFirst().paramLabel(), name);
        }
        assertNotNull(vhost.getSubcommands().get("suspend").getCommandSpec().findOption("--and-resume"));
    }
}
