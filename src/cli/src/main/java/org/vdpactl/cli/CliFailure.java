package org.vdpactl.cli;

/**
 * A failure the CLI reports as one line and an exit code. Commands throw it for problems they
 * understand; {@link ErrorReporter} maps every other exception to one as well.
 */
public final class CliFailure extends RuntimeException {
    private final ExitCode exitCode;

    public CliFailure(ExitCode exitCode, String message) {
        super(message);
        this.exitCode = exitCode;
    }

    public CliFailure(ExitCode exitCode, String message, Throwable cause) {
        super(message, cause);
        this.exitCode = exitCode;
    }

    public ExitCode exitCode() {
        return exitCode;
    }
}
