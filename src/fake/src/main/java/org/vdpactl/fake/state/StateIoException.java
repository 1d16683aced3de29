package org.vdpactl.fake.state;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystemException;
import org.vdpactl.sys.Errno;
import org.vdpactl.sys.InputFile;

/**
 * The state file or its lock cannot be read or written. The message is one line ending in the
 * operating system's reason ("Permission denied", "No space left on device"); the type says which
 * kind of problem it is, so that the CLI decides its exit code from the type alone, whichever
 * command met it: {@link AccessDenied} (EACCES, EPERM), {@link StorageUnavailable} (ENOSPC, EDQUOT,
 * EROFS) or this class for any other errno ({@link #errno()}, -1 when unknown).
 */
public class StateIoException extends UncheckedIOException {
    private final int errno;

    private StateIoException(String message, IOException cause, int errno) {
        super(message, cause);
        this.errno = errno;
    }

    static StateIoException of(String what, IOException e) {
        int errno = Errno.of(e);
        String reason = errno > 0 ? InputFile.strerror(errno) : InputFile.reason(e);
        String path = e instanceof FileSystemException fse && fse.getFile() != null && !what.contains(fse.getFile())
                ? " (" + fse.getFile() + ")" : "";
        String message = what + ": " + reason + path;
        return switch (errno) {
            case Errno.EACCES, Errno.EPERM -> new AccessDenied(message, e, errno);
            case Errno.ENOSPC, Errno.EDQUOT, Errno.EROFS -> new StorageUnavailable(message, e, errno);
            default -> new StateIoException(message, e, errno);
        };
    }

    /** The errno of the failed operation, or -1 when the JDK did not say. */
    public int errno() {
        return errno;
    }

    /** True when the operating system refused access (EACCES, EPERM). */
    public boolean permissionDenied() {
        return this instanceof AccessDenied;
    }

    /** EACCES or EPERM: the user may not write the state's directory or files (an immutable directory gives EPERM). */
    public static final class AccessDenied extends StateIoException {
        AccessDenied(String message, IOException cause, int errno) {
            super(message, cause, errno);
        }
    }

    /** ENOSPC, EDQUOT or EROFS: the state's file system takes no more data (full, over quota, read-only). */
    public static final class StorageUnavailable extends StateIoException {
        StorageUnavailable(String message, IOException cause, int errno) {
            super(message, cause, errno);
        }
    }
}
