package org.vdpactl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.BufferedWriter;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class CliContextTest {
    private final StringWriter out = new StringWriter();
    private boolean jsonBuilt;
    private boolean textWritten;

    /** A context as a command line parsed from {@code args} would give its command; stdout is buffered and not auto-flushed. */
    private CliContext context(String... args) {
        CommandLine cl = Main.commandLine();
        cl.setOut(new PrintWriter(new BufferedWriter(out), false));
        cl.setErr(new PrintWriter(new StringWriter(), true));
        cl.parseArgs(args);
        return CliContext.open(cl.getCommand(), cl);
    }

    private void printData(CliContext ctx) {
        ctx.printData(() -> {
            jsonBuilt = true;
            return Map.of("devices", 2);
        }, o -> {
            textWritten = true;
            o.println("2 devices");
        });
    }

    @Test
    void withJsonOnlyTheJsonDocumentIsBuiltAndPrinted() {
        try (CliContext ctx = context("--json")) {
            printData(ctx);
        }
        assertEquals("{\"devices\":2}" + System.lineSeparator(), out.toString());
        assertFalse(textWritten, "the text side must not run with --json");
    }

    @Test
    void withoutJsonOnlyTheTextIsWrittenAndItIsFlushed() {
        try (CliContext ctx = context()) {
            printData(ctx);
            assertEquals("2 devices" + System.lineSeparator(), out.toString(), "printed and flushed before the command ends");
        }
        assertFalse(jsonBuilt, "the JSON side must not be built without --json");
    }

    @Test
    void aCommandLineThatIsNotExecutingHasNoContext() {
        CommandLine cl = Main.commandLine();
        Main main = cl.getCommand();
        assertThrows(IllegalStateException.class, main::context);
    }
}
