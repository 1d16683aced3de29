package org.vdpactl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** `vdpactl generate-completion` prints a bash/zsh script that knows the commands. */
class CompletionCommandTest {
    @Test
    void completionScriptCompletesTheTopLevelCommands() {
        CliRun r = CliRun.of("generate-completion");
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(r.out().contains("complete -F"), "not a bash completion script");
        for (String cmd : new String[] {"rehearse", "mgmtdev", "dev", "vhost", "doctor", "bench"}) {
            assertTrue(r.out().contains(cmd), "completion lacks " + cmd);
        }
    }
}
