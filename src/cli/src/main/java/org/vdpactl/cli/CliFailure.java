package org.vdpactl.cli;

/**
 * A failure the CLI reports as one line and an exit code. A command throws
 * {@code new CliFailure(code, message)} for a condition it detects itself, and
 * {@link #from(Throwable, String)} to report an exception it caught: that exception's exit code is
 * decided by {@link ExitCodeMapper}, the one place that maps exceptions to exit codes.
 */
public final class CliFailure extends RuntimeException {
    private final ExitCode exitCode;

    public CliFailure(ExitCode exitCode, String message) {
        super(message);
        this.exitCode = exitCode;
    }

    private CliFailure(ExitCode exitCode, String message, Throwable cause) {
        super(message, cause);
        this.exitCode = exitCode;
    }

    /** {@code cause} reported with {@code message}; the exit code is {@link ExitCodeMapper#of}'s for the cause. */
    public static CliFailure from(Throwable cause, String message) {
        return new CliFailure(ExitCodeMapper.of(cause), message, cause);
    }

    public ExitCode exitCode() {
        return exitCode;
    }
}
