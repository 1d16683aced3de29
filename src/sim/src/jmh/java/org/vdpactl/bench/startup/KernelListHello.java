package org.vdpactl.bench.startup;

import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The floor of {@code vdpactl --backend kernel dev list} on a host without the vdpa module
 * (scripts/lib/bench-startup.sh): a picocli command line {@code hello [--backend B] dev list} whose model is built
 * with picocli's builders, as vdpactl's written models are (no annotation read at run time), with the standard help
 * options, parsed and executed; {@code list} asks netlink for the vdpa family as {@link NetlinkHello} does and
 * exits 8 when it is missing, as vdpactl does. No codec, no logging, no device model.
 */
public final class KernelListHello {
    private KernelListHello() {
    }

    public static void main(String[] args) {
        CommandSpec root = CommandSpec.create().name("hello").mixinStandardHelpOptions(true).version("1");
        root.addOption(OptionSpec.builder("--backend").paramLabel("BACKEND").type(String.class).defaultValue("kernel")
                .description("Where the devices are.").build());
        CommandLine dev = new CommandLine(CommandSpec.create().name("dev"));
        dev.addSubcommand("list", new CommandLine(CommandSpec.create().name("list")));
        CommandLine line = new CommandLine(root);
        line.addSubcommand("dev", dev);
        line.setExecutionStrategy(parsed -> PicocliHello.run(parsed, () -> {
            CommandLine.ParseResult leaf = parsed;
            while (leaf.hasSubcommand()) {
                leaf = leaf.subcommand();
            }
            if (!leaf.commandSpec().name().equals("list")) {
                return 2;
            }
            String answer;
            try {
                answer = NetlinkHello.ask();
            } catch (Throwable t) {
                throw new IllegalStateException(t);
            }
            System.out.println(answer);
            return answer.equals("vdpa family: available") ? 0 : 8;
        }));
        System.exit(line.execute(args));
    }
}
