package org.vdpactl.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.vdpactl.fake.fault.FaultRuleException;
import org.vdpactl.fake.state.FakeStateStore;
import org.vdpactl.fake.state.StateIoException;
import org.vdpactl.mgmt.FamilyNotAvailableException;
import org.vdpactl.report.fleet.BadFleetInputException;
import org.vdpactl.sys.Errno;
import org.vdpactl.sys.SyscallException;
import org.vdpactl.vhost.ConfigParseException;
import org.vdpactl.vhost.IotlbPlanException;
import org.vdpactl.vhost.MissingBackendFeaturesException;
import org.vdpactl.vhost.VhostNodeException;
import picocli.CommandLine;

/**
 * The one place that decides which exit code (README "Exit codes") an exception ends a command
 * with: from its type and errno, never from its message. Every command path that turns an
 * exception into a {@link CliFailure} goes through here ({@link CliFailure#from}, {@link ErrorReporter});
 * a command that detects a condition itself names its code with {@code new CliFailure(code, message)}
 * and a command's declared results are returned as {@code ExitCode.X.code()}
 * (ExitCodeSourcesTest keeps it so).
 */
public final class ExitCodeMapper {
    private ExitCodeMapper() {
    }

    /** The exit code a command that ended with {@code ex} returns. */
    public static ExitCode of(Throwable ex) {
        ExitCode code = known(decidingException(ex));
        return code == null ? ExitCode.FAILURE : code;
    }

    /**
     * The exception whose type decides: {@code ex} itself when its type is known here, else the
     * system call failure or CLI failure it wraps (a recorded call of the rehearsal wraps the
     * kernel's errno), else {@code ex} (an internal failure).
     */
    static Throwable decidingException(Throwable ex) {
        if (known(ex) != null) {
            return ex;
        }
        // the first cause of a known type decides: a system call's errno, a CLI failure, or the fake's state met
        // inside a call (a node's open recorded, a device's removal), whichever wrapper carries it
        for (Throwable c = ex.getCause(); c != null && c != ex; c = c.getCause() == c ? null : c.getCause()) {
            if (known(c) != null) {
                return c;
            }
        }
        return ex;
    }

    private static ExitCode known(Throwable ex) {
        return switch (ex) {
            case CliFailure f -> f.exitCode();
            case CommandLine.ParameterException p -> ExitCode.USAGE;
            // no vdpa module: the environment is not ready (README table), not a missing device
            case FamilyNotAvailableException f -> ExitCode.NOT_READY;
            case SyscallException se -> ofErrno(se.errno());
            case VhostNodeException n -> switch (n.reason()) {
                case MISSING -> ExitCode.NOT_FOUND;
                case STAT_FAILED -> ofErrno(n.errno());
                case NOT_A_VHOST_NODE -> ExitCode.USAGE;
                case MODULE_NOT_LOADED -> ExitCode.NOT_READY;
            };
            case FaultRuleException f -> inputFile(f);
            // input that cannot be mapped or decoded (library failures, not IllegalArgumentExceptions any more)
            case IotlbPlanException p -> ExitCode.USAGE;
            case ConfigParseException c -> ExitCode.USAGE;
            case BadFleetInputException b -> inputFile(b);
            case MissingBackendFeaturesException m -> ExitCode.NOT_SUPPORTED;
            case FakeStateStore.StateLockedException l -> ExitCode.NOT_READY;
            case FakeStateStore.CorruptStateException c -> ExitCode.USAGE;
            // the second of two concurrent deletes of one device: ENODEV on the kernel
            case FakeStateStore.DeletedMeanwhileException d -> ExitCode.NOT_FOUND;
            case FakeStateStore.StateConflictException c -> ExitCode.KERNEL_ERROR;
            case StateIoException.AccessDenied a -> ExitCode.PERMISSION;
            case StateIoException io -> ExitCode.NOT_READY;
            case IllegalArgumentException i -> inputFile(i);
            case UncheckedIOException u -> u.getCause() == null ? ExitCode.KERNEL_ERROR : ofIo(u.getCause());
            case IOException io -> ofIo(io);
            default -> null;
        };
    }

    /**
     * A named input file (fault rules, memory layout, rehearsal documents, batch) that is refused: its content is
     * bad input (USAGE); but when it could not be opened, the errno decides as for every file: ENOENT is a path not
     * found (NOT_FOUND), whichever file it is, the one rule for every path named on the command line, input or
     * output (rehearse --report's missing directory); EACCES is PERMISSION.
     */
    private static ExitCode inputFile(Throwable refusal) {
        for (Throwable c = refusal.getCause(); c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof NoSuchFileException || c instanceof AccessDeniedException) {
                return ofIo((IOException) c);
            }
        }
        return ExitCode.USAGE;
    }

    /**
     * The exit code of one command's {@code calls} calls made side by side on several devices, {@code errnos} those
     * of the ones that failed: OK when none failed, PARTIAL when some did; when all failed, their errno's code (EPERM
     * on SUSPEND is PERMISSION as on open), KERNEL_ERROR when their errnos' codes differ.
     */
    public static ExitCode ofCalls(int calls, List<Integer> errnos) {
        if (errnos.isEmpty()) {
            return ExitCode.OK;
        }
        if (errnos.size() < calls) {
            return ExitCode.PARTIAL;
        }
        Set<ExitCode> codes = new HashSet<>();
        errnos.forEach(e -> codes.add(ofErrno(e)));
        return codes.size() == 1 ? codes.iterator().next() : ExitCode.KERNEL_ERROR;
    }

    /** The exit code of a failed system call's errno: one errno, one exit code, whichever command meets it. */
    public static ExitCode ofErrno(int errno) {
        return switch (errno) {
            case Errno.EPERM, Errno.EACCES -> ExitCode.PERMISSION;
            // the process's or the system's file table is full: a limit to raise, not the kernel refusing the call
            case Errno.EMFILE, Errno.ENFILE -> ExitCode.RESOURCE_LIMIT;
            case Errno.ENOENT, Errno.ENODEV, Errno.ENXIO -> ExitCode.NOT_FOUND;
            case Errno.EOPNOTSUPP, Errno.ENOTTY, Errno.ENOTSUPP, Errno.EPROTONOSUPPORT, Errno.EAFNOSUPPORT -> ExitCode.NOT_SUPPORTED;
            default -> ExitCode.KERNEL_ERROR;
        };
    }

    /**
     * Java names the errno of a file operation by its exception type for the common ones; an input
     * file that does not parse is bad input; any other I/O failure is the kernel refusing a read or write.
     */
    private static ExitCode ofIo(IOException io) {
        return switch (io) {
            case AccessDeniedException a -> ExitCode.PERMISSION;
            case NoSuchFileException n -> ExitCode.NOT_FOUND;
            case NotDirectoryException n -> ExitCode.USAGE;
            case JsonProcessingException j -> ExitCode.USAGE;
            case CharacterCodingException c -> ExitCode.USAGE;
            default -> ExitCode.KERNEL_ERROR;
        };
    }
}
