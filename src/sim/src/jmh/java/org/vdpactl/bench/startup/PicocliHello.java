package org.vdpactl.bench.startup;

import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The floor of a picocli command (scripts/lib/bench-startup.sh): one command with the standard help options and one
 * option, its model built with picocli's builders as vdpactl's written models are (no annotation read at run time),
 * parsed and executed, printing one word. Whatever a vdpactl command costs beyond this is vdpactl's own; this much is
 * what any picocli program pays.
 */
public final class PicocliHello {
    private PicocliHello() {
    }

    public static void main(String[] args) {
        CommandSpec spec = CommandSpec.create().name("hello").mixinStandardHelpOptions(true).version("1");
        spec.usageMessage().description("Prints one word.");
        spec.addOption(OptionSpec.builder("--word").type(String.class).defaultValue("hi").description("The word to print.").build());
        CommandLine line = new CommandLine(spec);
        line.setExecutionStrategy(parsed -> run(parsed, () -> {
            System.out.println((String) parsed.matchedOptionValue("--word", spec.findOption("--word").defaultValue()));
            return 0;
        }));
        System.exit(line.execute(args));
    }

    /** The execution of a parsed command line, as picocli's own strategy: help and version first, else {@code command}. */
    static int run(CommandLine.ParseResult parsed, Callable<Integer> command) {
        Integer help = CommandLine.executeHelpRequest(parsed);
        if (help != null) {
            return help;
        }
        try {
            return command.call();
        } catch (Exception e) {
            throw new CommandLine.ExecutionException(parsed.commandSpec().commandLine(), "the command failed", e);
        }
    }
}
