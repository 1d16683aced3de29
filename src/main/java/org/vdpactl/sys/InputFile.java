package org.vdpactl.sys;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import jnr.constants.platform.OpenFlags;
import jnr.posix.POSIX;

/**
 * The one way vdpactl reads a file a user names (the fake's state and fault files, rehearsal
 * documents, memory layouts): a regular file of at most {@link #MAX_BYTES}, read whole.
 *
 * <p>The file is opened with O_NONBLOCK and its type taken from the open descriptor (fstat), so a
 * FIFO neither blocks the open (a FIFO opened for reading waits for a writer otherwise) nor is read,
 * and no rename between a check and the open can swap one in. A character device such as
 * /dev/zero or a file larger than the bound is refused before anything is allocated for it.
 */
public final class InputFile {
    /** The largest input file read: far above any state, fault or rehearsal document vdpactl writes. */
    public static final long MAX_BYTES = 16L << 20;
    private static final int FLAGS = OpenFlags.O_RDONLY.intValue() | OpenFlags.O_NONBLOCK.intValue()
            | OpenFlags.O_NOCTTY.intValue() | OpenFlags.O_CLOEXEC.intValue();

    private InputFile() {
    }

    /**
     * The bytes of {@code file}.
     *
     * @throws NoSuchFileException     when it does not exist
     * @throws AccessDeniedException   when it cannot be opened (EACCES, EPERM)
     * @throws RefusedException        when it is not a regular file or larger than {@link #MAX_BYTES}
     * @throws FileSystemException     for any other errno, with the operating system's reason
     */
    public static byte[] read(Path file) throws IOException {
        return read(file, MAX_BYTES);
    }

    static byte[] read(Path file, long maxBytes) throws IOException {
        POSIX posix = PanamaSyscalls.posix();
        int fd = posix.open(file.toString(), FLAGS, 0);
        if (fd < 0) {
            throw failure(posix, file, posix.errno());
        }
        try {
            jnr.posix.FileStat st = posix.allocateStat();
            if (posix.fstat(fd, st) < 0) {
                throw failure(posix, file, posix.errno());
            }
            if (!st.isFile()) {
                throw new RefusedException(file, "it is " + typeOf(st) + ", not a regular file");
            }
            if (st.st_size() > maxBytes) {
                throw tooLarge(file, maxBytes);
            }
            return readAll(posix, fd, file, maxBytes);
        } finally {
            posix.close(fd);
        }
    }

    /** Reads to the end, never more than {@code maxBytes}: a file may grow after fstat (a log, /proc). */
    private static byte[] readAll(POSIX posix, int fd, Path file, long maxBytes) throws IOException {
        byte[] buf = new byte[8192];
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        while (true) {
            long n = posix.read(fd, buf, (long) buf.length);
            if (n < 0) {
                int errno = posix.errno();
                if (errno == Errno.EINTR) {
                    continue;
                }
                throw failure(posix, file, errno);
            }
            if (n == 0) {
                return out.toByteArray();
            }
            if (out.size() + n > maxBytes) {
                throw tooLarge(file, maxBytes);
            }
            out.write(buf, 0, (int) n);
        }
    }

    private static RefusedException tooLarge(Path file, long maxBytes) {
        return new RefusedException(file, "it is larger than " + (maxBytes >> 20) + " MiB, the most vdpactl reads of an input file");
    }

    private static String typeOf(jnr.posix.FileStat st) {
        if (st.isDirectory()) {
            return "a directory";
        } else if (st.isFifo()) {
            return "a FIFO";
        } else if (st.isCharDev()) {
            return "a character device";
        } else if (st.isBlockDev()) {
            return "a block device";
        } else if (st.isSocket()) {
            return "a socket";
        }
        return "not a regular file";
    }

    private static IOException failure(POSIX posix, Path file, int errno) {
        return switch (errno) {
            case Errno.ENOENT -> new NoSuchFileException(file.toString());
            case Errno.EACCES, Errno.EPERM -> new AccessDeniedException(file.toString(), null, posix.strerror(errno));
            default -> new ErrnoFileSystemException(file.toString(), posix.strerror(errno), errno);
        };
    }

    /**
     * {@link #read} decoded as UTF-8: a byte sequence that is not UTF-8 is refused, never replaced
     * (names in these files are bytes a kernel would see; they are kept or refused, not altered).
     */
    public static String readUtf8(Path file) throws IOException {
        byte[] bytes = read(file);
        try {
            return java.nio.charset.StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
                    .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT)
                    .decode(java.nio.ByteBuffer.wrap(bytes)).toString();
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new RefusedException(file, "it is not UTF-8 text");
        }
    }

    /** Why reading failed, as the end of one line: "No such file or directory", "it is a FIFO, not a regular file". */
    public static String reason(IOException e) {
        if (e instanceof NoSuchFileException) {
            return "No such file or directory";
        }
        if (e instanceof AccessDeniedException) {
            return "Permission denied";
        }
        if (e instanceof RefusedException r) {
            return r.getReason();
        }
        if (e instanceof FileSystemException f && f.getReason() != null) {
            return f.getReason();
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }

    /** The operating system's text for {@code errno} ("No space left on device"), as the JDK's exceptions carry it. */
    public static String strerror(int errno) {
        return PanamaSyscalls.posix().strerror(errno);
    }

    /** A file that is not read at all: not a regular file, too large, not UTF-8. */
    public static final class RefusedException extends FileSystemException {
        public RefusedException(Path file, String reason) {
            super(file.toString(), null, reason);
        }
    }

    /** An I/O failure that keeps its errno, so that callers decide by the number, not the text. */
    public static final class ErrnoFileSystemException extends FileSystemException {
        private final int errno;

        public ErrnoFileSystemException(String file, String reason, int errno) {
            super(file, null, reason);
            this.errno = errno;
        }

        public int errno() {
            return errno;
        }
    }
}
