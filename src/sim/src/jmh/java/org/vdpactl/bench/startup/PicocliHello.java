package org.vdpactl.bench.startup;

import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The floor of a picocli command (scripts/lib/bench-startup.sh): one annotated command with the standard help
 * options and one option, parsed and executed the way vdpactl's Main does, printing one word. Whatever a
 * vdpactl command costs beyond this is vdpactl's own; this much is what any picocli program pays.
 */
@Command(name = "hello", mixinStandardHelpOptions = true, version = "1", description = "Prints one word.")
public final class PicocliHello implements Callable<Integer> {
    @Option(names = "--word", description = "The word to print.", defaultValue = "hi")
    String word;

    @Override
    public Integer call() {
        System.out.println(word);
        return 0;
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new PicocliHello()).execute(args));
    }
}
