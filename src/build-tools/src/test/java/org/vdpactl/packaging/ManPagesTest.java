package org.vdpactl.packaging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

class ManPagesTest {
    @Command(name = "tool", description = "Does things.%nSecond line.", mixinStandardHelpOptions = true,
            footerHeading = "%nExit codes:%n", footer = {"  0 fine", ".2 starts with a dot"},
            subcommands = {Sub.class, Hidden.class})
    static final class Tool implements Runnable {
        @Option(names = {"-p", "--path"}, paramLabel = "FILE", description = "A path with a \\ backslash (default: ${DEFAULT-VALUE}).",
                defaultValue = "/tmp/x")
        String path;

        @Option(names = "--secret", hidden = true)
        boolean secret;

        @Override
        public void run() {
        }
    }

    @Command(name = "sub", aliases = "s", description = {"A subcommand that does", "more. Second sentence."})
    static final class Sub implements Runnable {
        @Parameters(paramLabel = "DEV", description = "The device.")
        String dev;

        @Override
        public void run() {
        }
    }

    @Command(name = "hidden", hidden = true, description = "Not for users.")
    static final class Hidden implements Runnable {
        @Override
        public void run() {
        }
    }

    private final ManPages pages = new ManPages("1.2.3", "2025-01-02");

    @Test
    void onePagePerVisibleCommandNamedLikeGit() {
        Map<String, String> p = pages.render(new CommandLine(new Tool()));
        assertEquals(List.of("tool.1", "tool-sub.1"), List.copyOf(p.keySet()));
    }

    @Test
    void rootPageHasTheManSectionsAndEscapesTroff() {
        String page = pages.render(new CommandLine(new Tool())).get("tool.1");
        assertTrue(page.contains(".TH \"TOOL\" \"1\" \"2025-01-02\" \"vdpactl 1.2.3\""), page);
        assertTrue(page.contains(".SH NAME\ntool \\- Does things.\n"), page);
        assertTrue(page.contains(".SH SYNOPSIS\n.nf\ntool [-hV] [-p=FILE] [COMMAND]\n.fi\n"), page);
        assertTrue(page.contains("\\fB\\-p\\fR, \\fB\\-\\-path\\fR=\\fIFILE\\fR\n"), page);
        assertTrue(page.contains("A path with a \\e backslash (default: /tmp/x)."), page);
        assertFalse(page.contains("--secret") || page.contains("\\-\\-secret"), "hidden option shown");
        assertTrue(page.contains(".SH COMMANDS\n.TP\n\\fBsub\\fR\n"), page);
        assertFalse(page.contains("hidden"), "hidden command listed");
        assertTrue(page.contains(".SH EXIT CODES\n"), page);
        // a text line starting with a dot would be read as a troff request
        assertTrue(page.contains("\n\\&.2 starts with a dot\n"), page);
        assertTrue(page.contains(".SH SEE ALSO\n\\fBtool\\-sub\\fR(1)\n"), page);
    }

    @Test
    void subcommandPageDocumentsItsArgumentsAndPointsBack() {
        String page = pages.render(new CommandLine(new Tool())).get("tool-sub.1");
        // the summary is the first sentence, also when the description wraps it over two lines
        assertTrue(page.contains(".SH NAME\ntool\\-sub \\- A subcommand that does more.\n"), page);
        assertTrue(page.contains(".SH ARGUMENTS\n.TP\n\\fIDEV\\fR\nThe device.\n"), page);
        assertTrue(page.contains(".SH SEE ALSO\n\\fBtool\\fR(1)\n"), page);
    }

    @Test
    void theRealCliGetsAPageForEveryTopLevelCommand() {
        CommandLine root = ReleaseFiles.commandTree();
        Map<String, String> p = pages.render(root);
        assertTrue(p.containsKey("vdpactl.1"));
        for (Map.Entry<String, CommandLine> e : root.getSubcommands().entrySet()) {
            CommandLine.Model.CommandSpec spec = e.getValue().getCommandSpec();
            if (spec.usageMessage().hidden() || spec.userObject() instanceof CommandLine.HelpCommand || !e.getKey().equals(spec.name())) {
                continue;
            }
            String page = p.get("vdpactl-" + e.getKey() + ".1");
            assertTrue(page != null, "no page for " + e.getKey() + " in " + p.keySet());
            assertTrue(page.contains(".SH NAME\n") && page.contains(".SH SYNOPSIS\n"), page);
        }
        // the synopsis breaks between options only: "[--fake-kernel=6.1|6." / "12|7.2]" was cut inside a value
        for (Map.Entry<String, String> e : p.entrySet()) {
            String page = e.getValue();
            String synopsis = page.substring(page.indexOf(".SH SYNOPSIS\n.nf\n") + 17, page.indexOf(".fi\n", page.indexOf(".SH SYNOPSIS")));
            for (String line : synopsis.lines().toList()) {
                assertEquals(line.chars().filter(c -> c == '[').count(), line.chars().filter(c -> c == ']').count(),
                        e.getKey() + ": a synopsis line breaks inside brackets: " + line);
            }
        }
    }
}
