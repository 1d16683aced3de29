package org.vdpactl.packaging;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The completion script the build ships completes the CLI's real top-level commands. */
class CompletionScriptTest {
    private static final Pattern ROOT_COMMANDS =
            Pattern.compile("function _picocli_vdpactl\\(\\) \\{.*?local commands=\"([^\"]*)\"", Pattern.DOTALL);

    @Test
    void rootFunctionListsEveryTopLevelCommand() {
        String script = ReleaseFiles.completionScript();
        Matcher m = ROOT_COMMANDS.matcher(script);
        assertTrue(m.find(), "no root completion function in the script");
        List<String> offered = Arrays.asList(m.group(1).trim().split("\\s+"));
        Set<String> commands = ReleaseFiles.commandTree().getSubcommands().keySet();
        assertFalse(commands.isEmpty());
        for (String c : commands) {
            if (ReleaseFiles.commandTree().getSubcommands().get(c).getCommandSpec().usageMessage().hidden()) {
                continue; // __complete: the script's own helper, not offered
            }
            assertTrue(offered.contains(c), "completion does not offer '" + c + "': " + offered);
        }
    }

    @Test
    void rootFunctionCompletesTheGlobalOptions() {
        String script = ReleaseFiles.completionScript();
        for (String option : List.of("--help", "--version")) {
            assertTrue(script.contains(option), option);
        }
        // zsh users source the same file: picocli's script sets up bashcompinit itself
        assertTrue(script.contains("bashcompinit"));
    }
}
