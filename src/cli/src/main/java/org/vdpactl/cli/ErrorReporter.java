package org.vdpactl.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vdpactl.cli.host.HolderUsers;
import picocli.CommandLine;

/**
 * Turns every failure of a command into one line on stderr and a documented exit code. The stack
 * trace is shown only with --verbose: operators need the cause, not our call stack.
 */
final class ErrorReporter implements CommandLine.IExecutionExceptionHandler, CommandLine.IParameterExceptionHandler {
    private final Main options;

    ErrorReporter(Main options) {
        this.options = options;
    }

    @Override
    public int handleExecutionException(Exception ex, CommandLine cmd, CommandLine.ParseResult parseResult) {
        CliFailure f = classify(ex);
        PrintWriter err = cmd.getErr();
        // a holder the library names ("held open by pid N (qemu)") with the user it runs as: whom to ask
        String message = shown(HolderUsers.inText(f.getMessage()));
        err.println("vdpactl: " + message);
        if (options.json && !options.dataPrinted) {
            JsonError.print(cmd.getOut(), f.exitCode(), message, ex);
        }
        if (Main.verbose()) {
            ex.printStackTrace(err);
        } else if (f.exitCode() == ExitCode.FAILURE) {
            err.println("vdpactl: run with --verbose for the stack trace");
        }
        err.flush();
        // looked up here, not in a static field: a command that succeeds never starts the logging system
        Logger log = LoggerFactory.getLogger(ErrorReporter.class);
        log.debug("command failed", ex);
        return f.exitCode().code();
    }

    @Override
    public int handleParseException(CommandLine.ParameterException ex, String[] args) {
        CommandLine cmd = ex.getCommandLine();
        PrintWriter err = cmd.getErr();
        String message = shown(ex.getMessage());
        err.println("vdpactl: " + message);
        if (JsonError.requested(args)) {
            JsonError.print(cmd.getOut(), ExitCodeMapper.of(ex), message);
        }
        err.println("Try '" + cmd.getCommandSpec().qualifiedName() + " --help' for more information.");
        err.flush();
        return ExitCodeMapper.of(ex).code();
    }

    /** The longest error message printed whole: one line an operator reads, not an argument of a megabyte echoed back. */
    static final int MAX_MESSAGE_CHARS = 4096;

    /**
     * {@code message} as printed: whole up to {@link #MAX_MESSAGE_CHARS}, else its start and its end (where
     * the reason and the hint are) with how much was left out between them.
     */
    static String shown(String message) {
        if (message == null || message.length() <= MAX_MESSAGE_CHARS) {
            return message;
        }
        int tail = MAX_MESSAGE_CHARS / 4;
        int head = MAX_MESSAGE_CHARS - tail;
        return message.substring(0, head) + " [... " + (message.length() - head - tail) + " characters left out ...] "
                + message.substring(message.length() - tail);
    }

    /** The exit code ({@link ExitCodeMapper}) and message the CLI reports for any exception. */
    static CliFailure classify(Throwable ex) {
        if (ex instanceof CliFailure f) {
            return f;
        }
        Throwable deciding = ExitCodeMapper.decidingException(ex);
        if (deciding != ex) {
            return classify(deciding);
        }
        String message = ExitCodeMapper.of(ex) == ExitCode.FAILURE ? "internal error: " + ex
                : ex instanceof UncheckedIOException || ex instanceof IOException ? "I/O error: " + ex.getMessage()
                : ex.getMessage();
        return CliFailure.from(ex, message);
    }
}
