package org.vdpactl.cli;

import java.io.PrintWriter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vdpactl.sys.Errno;
import org.vdpactl.sys.SyscallException;
import picocli.CommandLine;

/**
 * Turns every failure of a command into one line on stderr and a documented exit code. The stack
 * trace is shown only with --verbose: operators need the cause, not our call stack.
 */
final class ErrorReporter implements CommandLine.IExecutionExceptionHandler, CommandLine.IParameterExceptionHandler {
    private static final Logger LOG = LoggerFactory.getLogger(ErrorReporter.class);
    private final Main options;

    ErrorReporter(Main options) {
        this.options = options;
    }

    @Override
    public int handleExecutionException(Exception ex, CommandLine cmd, CommandLine.ParseResult parseResult) {
        CliFailure f = classify(ex);
        PrintWriter err = cmd.getErr();
        err.println("vdpactl: " + f.getMessage());
        if (options.json && !options.dataPrinted) {
            JsonError.print(cmd.getOut(), f.exitCode(), f.getMessage());
        }
        if (Main.verbose()) {
            ex.printStackTrace(err);
        } else if (f.exitCode() == ExitCode.FAILURE) {
            err.println("vdpactl: run with --verbose for the stack trace");
        }
        err.flush();
        LOG.debug("command failed", ex);
        return f.exitCode().code();
    }

    @Override
    public int handleParseException(CommandLine.ParameterException ex, String[] args) {
        CommandLine cmd = ex.getCommandLine();
        PrintWriter err = cmd.getErr();
        err.println("vdpactl: " + ex.getMessage());
        if (JsonError.requested(args)) {
            JsonError.print(cmd.getOut(), ExitCode.USAGE, ex.getMessage());
        }
        err.println("Try '" + cmd.getCommandSpec().qualifiedName() + " --help' for more information.");
        err.flush();
        return ExitCode.USAGE.code();
    }

    /** Maps any exception to the exit code and message the CLI reports. */
    static CliFailure classify(Throwable ex) {
        if (ex instanceof CliFailure f) {
            return f;
        }
        // the fake's state met inside a call (a node's open recorded, a device's removal) ends as when saving
        for (Throwable t = ex; t != null; t = t.getCause() == t ? null : t.getCause()) {
            CliFailure state = FakeBackend.stateFailureOf(t);
            if (state != null) {
                return state;
            }
        }
        if (ex instanceof org.vdpactl.mgmt.FamilyNotAvailableException) {
            // no vdpa module: the environment is not ready (README table), not a missing device
            return new CliFailure(ExitCode.NOT_READY, ex.getMessage(), ex);
        }
        if (ex instanceof SyscallException se) {
            return new CliFailure(exitCodeOf(se.errno()), se.getMessage(), se);
        }
        if (ex instanceof IllegalArgumentException) {
            return new CliFailure(ExitCode.USAGE, ex.getMessage(), ex);
        }
        if (ex instanceof java.io.UncheckedIOException || ex instanceof java.io.IOException) {
            return new CliFailure(ExitCode.USAGE, "I/O error: " + ex.getMessage(), ex);
        }
        Throwable cause = ex.getCause();
        if (cause != null && cause != ex && (cause instanceof SyscallException || cause instanceof CliFailure)) {
            return classify(cause);
        }
        return new CliFailure(ExitCode.FAILURE, "internal error: " + ex, ex);
    }

    static ExitCode exitCodeOf(int errno) {
        return switch (errno) {
            case Errno.EPERM, Errno.EACCES -> ExitCode.PERMISSION;
            case Errno.ENOENT, Errno.ENODEV, Errno.ENXIO -> ExitCode.NOT_FOUND;
            case Errno.EOPNOTSUPP, Errno.ENOTTY, Errno.ENOTSUPP, Errno.EPROTONOSUPPORT, Errno.EAFNOSUPPORT -> ExitCode.NOT_SUPPORTED;
            default -> ExitCode.KERNEL_ERROR;
        };
    }
}
