package org.vdpactl.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.vdpactl.cli.log.LogThreshold;
import org.vdpactl.cli.log.StderrLoggerProvider;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/** Entry point of the vdpactl command. */
@Command(name = "vdpactl",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = "Drive Linux vhost-vdpa devices and the vdpa netlink family; rehearse live-migration downtime.",
        footerHeading = "%nExit codes:%n",
        // lines shorter than the usage width (80): picocli would wrap a longer one inside a phrase
        footer = {"  0 success, 1 internal failure, 2 usage, 3 not found, 4 permission,",
                  "  5 not supported, 6 partial batch failure, 7 kernel error,",
                  "  8 environment not ready, 9 resource limit too low, 10 migration blocked,",
                  "  130 interrupted by SIGINT or SIGTERM at a safe point (see README)."})
public final class Main implements Callable<Integer> {
    private static volatile boolean verbose;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** The context of the command being executed by this command line; null between executions. */
    private CliContext context;

    @Option(names = "--backend", scope = ScopeType.INHERIT, completionCandidates = CompletionValues.Backends.class, paramLabel = "auto|kernel|fake",
            description = "Kernel to talk to (default: ${DEFAULT-VALUE}): auto uses the kernel when it has vDPA, else the fake.",
            defaultValue = "${env:VDPACTL_BACKEND:-auto}", converter = BackendKindConverter.class)
    BackendKind backend;

    @Option(names = "--fake-state", scope = ScopeType.INHERIT, paramLabel = "FILE",
            description = "State file of the fake backend (default: $XDG_STATE_HOME/vdpactl/fake-state.json).")
    Path fakeState;

    @Option(names = "--fake-faults", scope = ScopeType.INHERIT, paramLabel = "FILE",
            description = "Fault-injection rules for the fake backend (JSON, see docs/fake-faults.md).")
    Path fakeFaults;

    @Option(names = "--fake-kernel", scope = ScopeType.INHERIT, completionCandidates = CompletionValues.FakeKernels.class, paramLabel = "VERSION",
            // the names come from the kernel profiles (CompletionValues.FakeKernels): no list of them is typed here
            description = "Linux version the fake backend speaks, a kernel profile or its alias: ${COMPLETION-CANDIDATES} "
                    + "(default: the version the state file recorded, else 6.12). See docs/kernel-profiles.md.")
    String fakeKernel;

    @Option(names = "--fake-clock", scope = ScopeType.INHERIT, completionCandidates = CompletionValues.FakeClocks.class, paramLabel = "real|virtual", defaultValue = "real",
            description = "Clock of the fake backend: real (its modelled latencies are real waits; default) or virtual "
                    + "(deterministic simulated time, no waiting: for CI and reproducible reports).")
    String fakeClock;

    @Option(names = {"-j", "--json"}, scope = ScopeType.INHERIT, description = "Print data as JSON.")
    boolean json;

    /**
     * Who runs this command line: the fake backend's process takes it. {@link #main} sets the real caller;
     * an in-process command line (tests, embedding) acts as root unless given another one, so that its
     * results do not depend on who runs it.
     */
    CallerIdentity caller = CallerIdentity.ROOT;

    /** Set once the command has printed data: an error after that must not add a second JSON document. */
    boolean dataPrinted;

    @Option(names = {"-p", "--pretty"}, scope = ScopeType.INHERIT, description = "Indent JSON output.")
    boolean pretty;

    @Option(names = {"-v", "--verbose"}, scope = ScopeType.INHERIT, description = "Log more and show stack traces of failures.")
    void setVerbose(boolean v) {
        verbose = v;
        LogThreshold.verbose(v);
    }

    static boolean verbose() {
        return verbose;
    }

    /** The context of the command this command line is executing (see {@link CommandContext}). */
    CliContext context() {
        if (context == null) {
            throw new IllegalStateException("no vdpactl command is being executed by this command line");
        }
        return context;
    }

    @Option(names = {"-b", "--batch"}, paramLabel = "FILE",
            description = "Run the command lines of FILE (- for standard input), one a line, as `ip -batch` does; "
                    + "stops at the first that fails unless --force.")
    String batch;

    @Option(names = "--force", description = "With --batch: go on after a command fails; exit with the last failure's code.")
    boolean force;

    @Override
    public Integer call() {
        if (batch != null) {
            return BatchRun.run(batch, force, BatchOptions.given(spec.commandLine().getParseResult()), caller,
                    spec.commandLine().getOut(), spec.commandLine().getErr());
        }
        if (force) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--force needs --batch");
        }
        CommandGroup.refuseMissingSubcommand(spec);
        return ExitCode.USAGE.code();
    }

    /** Builds the command line with every subcommand and its error handling; tests run commands in-process through it. */
    public static CommandLine commandLine() {
        return commandLine(Commands.all());
    }

    /** The command line for {@code args}: only the subcommands it needs (start-up, see {@link Commands#forArgs}). */
    static CommandLine commandLineFor(String... args) {
        return commandLine(Commands.forArgs(args));
    }

    private static CommandLine commandLine(List<Object> subcommands) {
        Main main = new Main();
        CommandLine cl = CommandModel.commandLine(main);
        if (Commands.isWholeTree(subcommands)) {
            // picocli's help command, first as its @Command(subcommands) put it: it reads its annotations at run time,
            // so only the whole tree, which a command line naming no subcommand of ours gets (Commands.forArgs), has it
            cl.addSubcommand(new CommandLine.HelpCommand());
        }
        for (Object sub : subcommands) {
            cl.addSubcommand(CommandModel.commandLine(sub));
        }
        SynopsisRenderer.install(cl);
        ErrorReporter reporter = new ErrorReporter(main);
        cl.setExecutionExceptionHandler(reporter);
        cl.setParameterExceptionHandler(reporter);
        cl.setExecutionStrategy(parseResult -> {
            refuseUnmatched(parseResult);
            if (parseResult.hasSubcommand() && (main.batch != null || main.force)) {
                // picocli would run the command and drop --batch (or --force) without a word
                throw new CommandLine.ParameterException(cl(parseResult), main.batch != null
                        ? "--batch runs the command lines of its file: give no command after it (or drop --batch)"
                        : "--force needs --batch (it goes on after a failed batch line)");
            }
            CommandLine sub = parseResult.commandSpec().commandLine();
            CommandLine.ParseResult leaf = parseResult;
            while (leaf.hasSubcommand()) {
                leaf = leaf.subcommand();
            }
            Object command = leaf.commandSpec().userObject();
            BatchGroup group = BatchGroup.current();
            if (group != null && command instanceof GroupedInBatch) {
                group.join(sub);
            } else if (group != null) {
                // any other line sees the state with the group's lines saved, and prints after them
                Optional<ExitCode> unsaved = group.save();
                if (unsaved.isPresent()) {
                    return unsaved.get().code();
                }
                group = null;
            }
            try (CliContext ctx = CliContext.open(main, sub, command, group)) {
                main.context = ctx;
                return new CommandLine.RunLast().execute(parseResult);
            } catch (RuntimeException e) {
                if (e instanceof CommandLine.ExecutionException || e instanceof CommandLine.ParameterException) {
                    throw e;
                }
                // closing the backend failed after the command itself ended (e.g. saving the fake's state)
                throw new CommandLine.ExecutionException(sub, e.getMessage(), e);
            } finally {
                main.context = null;
            }
        });
        return cl;
    }

    private static CommandLine cl(CommandLine.ParseResult parseResult) {
        return parseResult.commandSpec().commandLine();
    }

    /**
     * picocli lets a help command (generate-completion) ignore arguments it does not know; an
     * argument that means nothing is a usage error on every command.
     */
    private static void refuseUnmatched(CommandLine.ParseResult parseResult) {
        for (CommandLine.ParseResult pr = parseResult; pr != null; pr = pr.subcommand()) {
            if (!pr.unmatched().isEmpty()) {
                throw new CommandLine.UnmatchedArgumentException(pr.commandSpec().commandLine(), pr.unmatched());
            }
        }
    }

    /** Runs one command line with the given streams; returns the exit code. */
    public static int run(PrintWriter out, PrintWriter err, String... given) {
        forgetVerbose();
        String[] args = IprouteForms.rewrite(given);
        CommandLine cl = commandLineFor(args);
        cl.setOut(out);
        cl.setErr(err);
        return cl.execute(args);
    }

    /**
     * The JDK property that makes core reflection call methods and constructors through JNI instead of spinning a
     * method handle per member. Since JDK 18 (JEP 416) every reflective call (Jackson's data binding of the fake's
     * profiles and state: records' constructors, setters) builds method handles and their lambda forms at run time,
     * which the AOT cache cannot keep: with the build's cache `--backend fake dev list` still generated 240 lambda
     * forms, 77 with this (measured with -Xlog:class+load). A command is over long before a JIT-compiled accessor
     * would pay that back.
     */
    static final String NATIVE_REFLECTION = "jdk.reflect.useNativeAccessorOnly";

    /**
     * picocli's property that stops its default factory looking for Groovy's closure class when the factory is first
     * used: a class search through the whole class path that fails, at every start (vdpactl has no Groovy).
     */
    static final String PICOCLI_NO_CLOSURES = "picocli.disable.closures";

    /**
     * SLF4J's properties naming its provider, and the least level of its own notes. Named, the CLI's provider is not
     * searched for: SLF4J's ServiceLoader search through the JDK's modules and the jar at the first logger was 3 % of
     * `fake dev list`'s CPU (a CPU profile). Loading a named provider is a note of level INFO, which SLF4J would print
     * on stderr at every command; its warnings still reach stderr.
     */
    static final String SLF4J_PROVIDER = "slf4j.provider";
    static final String SLF4J_VERBOSITY = "slf4j.internal.verbosity";

    /** Names the CLI's SLF4J provider, before the first logger; a provider given with -D wins, with SLF4J's notes as it prints them. */
    static void nameLogProvider() {
        if (System.getProperty(SLF4J_PROVIDER) == null) {
            System.setProperty(SLF4J_PROVIDER, StderrLoggerProvider.class.getName());
            if (System.getProperty(SLF4J_VERBOSITY) == null) {
                System.setProperty(SLF4J_VERBOSITY, "WARN");
            }
        }
    }

    public static void main(String[] args) {
        // before anything reflects: the JDK reads it once, at the first reflective call after start-up; -D wins
        if (System.getProperty(NATIVE_REFLECTION) == null) {
            System.setProperty(NATIVE_REFLECTION, "true");
        }
        if (System.getProperty(PICOCLI_NO_CLOSURES) == null) {
            System.setProperty(PICOCLI_NO_CLOSURES, "true");
        }
        nameLogProvider();
        String[] given;
        try {
            given = ArgvBytes.recover(args);
        } catch (CliFailure f) {
            System.err.println("vdpactl: " + f.getMessage());
            if (JsonError.requested(args)) {
                PrintWriter out = new PrintWriter(System.out, true);
                JsonError.print(out, f.exitCode(), f.getMessage());
            }
            end(f.exitCode().code());
            return;
        }
        if (VersionOnly.answer(given, System.out)) {
            end(ExitCode.OK.code());
            return;
        }
        String[] words = IprouteForms.rewrite(given);
        CommandLine cl = commandLineFor(words);
        ((Main) cl.getCommand()).caller = CallerIdentity.current();
        int code = cl.execute(words);
        int status = StdoutCheck.afterRun(code, cl.getOut(), System.out, cl.getErr());
        cl.getErr().flush();
        end(status);
    }

    /**
     * Ends the process with {@code status}, its two streams flushed. Not {@code System.exit}: since JDK 21
     * {@code Runtime.exit} looks up the platform logger "java.lang.Runtime" to log every exit, which starts the JDK's
     * logging framework at the end of every command (seen in a CPU profile of {@code --backend kernel dev list}).
     * All that exit adds to halt is running shutdown hooks, and vdpactl registers none (nor uses deleteOnExit or the
     * Console); a signal that stops a rehearsal halts too ({@link StopSignals}).
     */
    static void end(int status) {
        System.out.flush();
        System.err.flush();
        Runtime.getRuntime().halt(status);
    }

    /** As {@link #run(PrintWriter, PrintWriter, String...)}, as {@code caller}. */
    static int run(PrintWriter out, PrintWriter err, CallerIdentity caller, String... given) {
        forgetVerbose();
        String[] args = IprouteForms.rewrite(given);
        CommandLine cl = commandLineFor(args);
        ((Main) cl.getCommand()).caller = caller;
        cl.setOut(out);
        cl.setErr(err);
        return cl.execute(args);
    }

    /**
     * -v sets a process-wide threshold: a command line run in the same process after one with -v (a batch line,
     * a test) must not inherit it, and picocli calls the setter only when the option is given.
     */
    private static void forgetVerbose() {
        verbose = false;
        LogThreshold.verbose(false);
    }

    /** Accepts the backend names in any case. */
    static final class BackendKindConverter implements CommandLine.ITypeConverter<BackendKind> {
        @Override
        public BackendKind convert(String value) {
            try {
                return BackendKind.valueOf(value.trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                // without --backend the value is the environment's: the line must name where it came from
                String env = System.getenv("VDPACTL_BACKEND");
                throw new CommandLine.TypeConversionException("unknown backend '" + value + "'"
                        + (value.equals(env) ? " (from the environment variable VDPACTL_BACKEND, which --backend overrides)" : "")
                        + " (expected auto, kernel or fake)");
            }
        }
    }
}
