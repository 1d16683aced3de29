package org.vdpactl.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vdpactl.fake.state.FakeStateStore;
import org.vdpactl.fake.state.StateWrites;
import org.vdpactl.report.BackendFields;
import org.vdpactl.report.JsonDocument;
import org.vdpactl.sys.Syscalls;
import org.vdpactl.time.Clock;
import picocli.CommandLine;

/**
 * What a running command needs: the chosen backend (opened on first use, closed when the command
 * ends), the output streams and the output mode. One exists per command execution; commands reach it
 * through {@link CommandContext}.
 */
public final class CliContext implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(CliContext.class);

    private final Main options;
    private final CommandLine commandLine;
    /** What the fake may create on the state path: decided here, once, from the command being run. */
    private final StateWrites stateWrites;
    /** The batch group this command runs in, which owns the backend and saves it; null outside one. */
    private final BatchGroup group;
    private Backend backend;

    private CliContext(Main options, CommandLine commandLine, StateWrites stateWrites, BatchGroup group) {
        this.options = options;
        this.commandLine = commandLine;
        this.stateWrites = stateWrites;
        this.group = group;
    }

    static CliContext open(Main options, CommandLine commandLine) {
        return open(options, commandLine, commandLine.getCommand());
    }

    /** {@code command}: the (sub)command being run; a {@link ReadOnlyCommand} creates nothing on a path without state. */
    static CliContext open(Main options, CommandLine commandLine, Object command) {
        return open(options, commandLine, command, null);
    }

    /** As {@link #open(Main, CommandLine, Object)}, in a batch's {@code group} (null: none). */
    static CliContext open(Main options, CommandLine commandLine, Object command, BatchGroup group) {
        return new CliContext(options, commandLine, command instanceof ReadOnlyCommand
                ? StateWrites.EXISTING_STATE_ONLY : StateWrites.CREATE, group);
    }

    /** The backend, opened now if needed (logs which one on stderr). */
    public Backend backend() {
        if (backend == null) {
            if (options.fakeState != null && options.backend != BackendKind.KERNEL
                    && stateWrites == StateWrites.CREATE) {
                StateDirectoryRule.refuseMissingParents(fakeStatePath());
            }
            backend = group == null ? openBackend() : group.backend(Arrays.asList(options.backend, fakeStatePath(),
                    options.fakeFaults, options.fakeKernel, options.fakeClock, options.caller, stateWrites), this::openBackend);
            if (options.backend == BackendKind.AUTO) {
                LOG.info("backend: {}", backend.description());
            } else {
                LOG.debug("backend: {}", backend.description());
            }
        }
        return backend;
    }

    private Backend openBackend() {
        return Backends.open(options.backend, fakeStatePath(), options.fakeFaults, options.fakeKernel, options.fakeClock,
                options.caller, stateWrites);
    }

    /**
     * Makes this command's changes durable before it reports success (see {@link Backend#saveState()}); in a batch
     * group the group saves, before it prints what the command reported.
     */
    public void saveState() {
        if (backend != null && group == null) {
            backend.saveState();
        }
    }

    public Syscalls syscalls() {
        return backend().syscalls();
    }

    public Clock clock() {
        return backend().clock();
    }

    /** True when figures come from the fake kernel's models, not hardware. */
    public boolean simulated() {
        return backend().simulated();
    }

    public BackendKind requestedBackend() {
        return options.backend;
    }

    public Optional<Path> fakeFaults() {
        return Optional.ofNullable(options.fakeFaults);
    }

    public Path fakeStatePath() {
        if (options.fakeState != null) {
            if (options.fakeState.toString().isEmpty()) {
                // Path.of("") is the working directory: a typo'd variable must not put the state there
                throw new CliFailure(ExitCode.USAGE, "--fake-state: the empty path names no file");
            }
            return options.fakeState;
        }
        return FakeStateStore.defaultStateFile();
    }

    /** The backend as JSON fields ({@code presets}: the latency presets of the devices a document covers). */
    public BackendFields backendFields(List<String> presets) {
        String profile = backend().fakeKernel().map(f -> f.kernelProfile().version()).orElse(null);
        // the JVM's os.version is uname's release
        return new BackendFields(simulated() ? "fake" : "kernel", profile, simulated() ? null : System.getProperty("os.version"), presets);
    }

    public boolean json() {
        return options.json;
    }

    public PrintWriter out() {
        options.dataPrinted = true;
        return commandLine.getOut();
    }

    public PrintWriter err() {
        return commandLine.getErr();
    }

    /** The mapper every command prints JSON with (never hand-written JSON): {@link JsonDocument#mapper()}'s keys. */
    public ObjectMapper mapper() {
        ObjectMapper m = JsonDocument.mapper();
        if (options.pretty) {
            m.setDefaultPrettyPrinter(new IprouteJsonIndentation());
            m.enable(SerializationFeature.INDENT_OUTPUT);
        }
        return m;
    }



    /** Prints a JSON value on stdout, one document per line unless --pretty. */
    public void printJson(Object value) {
        try {
            out().println(mapper().writeValueAsString(value instanceof JsonNode n ? n : value));
            out().flush();
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot render JSON", e);
        }
    }

    /**
     * Prints one of vdpactl's own documents: with --json {@code {"schema": ..., "schema_version": ..., ...}}
     * followed by the fields of {@code body} (a record or map), else what {@code text} writes.
     */
    public void printDocument(JsonDocument kind, Supplier<?> body, Consumer<PrintWriter> text) {
        printData(() -> kind.of(body.get()), text);
    }

    /**
     * Prints a command's data: {@code json} rendered as one JSON document with --json, else what
     * {@code text} writes; flushed either way. The one place that decides between the two, so that every
     * command that prints data honours --json (and only the chosen side is computed).
     */
    public void printData(Supplier<?> json, Consumer<PrintWriter> text) {
        if (json()) {
            printJson(json.get());
        } else {
            text.accept(out());
            out().flush();
        }
    }

    @Override
    public void close() {
        if (backend != null) {
            if (group == null) {
                backend.close();
            }
            backend = null;
        }
    }
}
