package org.vdpactl.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.Deque;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** Every command's --help footer prints as written: picocli wrapped a line longer than the width inside a phrase. */
class HelpFooterTest {
    @Test
    void everyFooterLineFitsTheUsageWidthAndPrintsWhole() {
        Deque<CommandLine> todo = new ArrayDeque<>();
        todo.add(Main.commandLine());
        while (!todo.isEmpty()) {
            CommandLine cl = todo.pop();
            todo.addAll(cl.getSubcommands().values());
            CommandLine.Model.UsageMessageSpec usage = cl.getCommandSpec().usageMessage();
            String help = cl.getUsageMessage(CommandLine.Help.Ansi.OFF);
            for (String line : usage.footer()) {
                for (String shown : line.split("%n")) {
                    assertTrue(shown.length() < usage.width(), cl.getCommandSpec().qualifiedName() + ": a footer line of "
                            + shown.length() + " characters would wrap inside a phrase: " + shown);
                    assertTrue(help.lines().anyMatch(l -> l.stripTrailing().equals(shown.stripTrailing())),
                            cl.getCommandSpec().qualifiedName() + ": printed whole: " + shown + "\n" + help);
                }
            }
        }
    }
}
