package org.vdpactl.sys;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import jnr.constants.platform.OpenFlags;

/**
 * The one way vdpactl reads a file a user names (the fake's state and fault files, rehearsal
 * documents, memory layouts): a regular file of at most {@link #MAX_BYTES}, read whole.
 *
 * <p>The file is opened with O_NONBLOCK and its type taken from the open descriptor, so a
 * FIFO neither blocks the open (a FIFO opened for reading waits for a writer otherwise) nor is read,
 * and no rename between a check and the open can swap one in. A character device such as
 * /dev/zero is refused unread, and no more than the bound is ever read of a file.
 */
public final class InputFile {
    /** The largest input file read: far above any state, fault or rehearsal document vdpactl writes. */
    public static final long MAX_BYTES = 16L << 20;
    private static final PanamaSyscalls SYSCALLS = new PanamaSyscalls();
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
        int fd;
        try {
            fd = SYSCALLS.open(file.toString(), FLAGS);
        } catch (SyscallException e) {
            throw failure(file, e.errno());
        }
        try {
            FileStat st = statOfOpen(fd, file);
            if (st.type() != FileStat.Type.REGULAR) {
                throw new RefusedException(file, "it is " + typeOf(st.type()) + ", not a regular file");
            }
            return readAll(fd, file, maxBytes);
        } finally {
            SYSCALLS.close(fd);
        }
    }

    /**
     * The type of what {@code fd} has open: stat(2) of /proc/self/fd/N follows that link to the open
     * file itself, so it is the opened file's type whatever happened to the path since (fstat's answer).
     */
    private static FileStat statOfOpen(int fd, Path file) throws IOException {
        try {
            return SYSCALLS.stat("/proc/self/fd/" + fd);
        } catch (SyscallException e) {
            if (e.errno() != Errno.ENOENT) {
                throw failure(file, e.errno());
            }
        }
        try {
            return SYSCALLS.stat(file.toString()); // no /proc: the path's type, taken after the non-blocking open
        } catch (SyscallException e) {
            throw failure(file, e.errno());
        }
    }

    /** Reads to the end, never more than {@code maxBytes}: the bound holds whatever the file's size says (/proc, a growing file). */
    private static byte[] readAll(int fd, Path file, long maxBytes) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buf = arena.allocate(64 * 1024);
            while (true) {
                long n;
                try {
                    n = SYSCALLS.read(fd, buf);
                } catch (SyscallException e) {
                    if (e.errno() == Errno.EINTR) {
                        continue;
                    }
                    throw failure(file, e.errno());
                }
                if (n == 0) {
                    return out.toByteArray();
                }
                if (out.size() + n > maxBytes) {
                    throw tooLarge(file, maxBytes);
                }
                out.write(buf.asSlice(0, n).toArray(ValueLayout.JAVA_BYTE));
            }
        }
    }

    private static RefusedException tooLarge(Path file, long maxBytes) {
        return new RefusedException(file, "it is larger than " + (maxBytes >> 20) + " MiB, the most vdpactl reads of an input file");
    }

    private static String typeOf(FileStat.Type type) {
        return switch (type) {
            case DIRECTORY -> "a directory";
            case FIFO -> "a FIFO";
            case CHAR_DEVICE -> "a character device";
            case BLOCK_DEVICE -> "a block device";
            case SOCKET -> "a socket";
            default -> "not a regular file";
        };
    }

    private static IOException failure(Path file, int errno) {
        return switch (errno) {
            case Errno.ENOENT -> new NoSuchFileException(file.toString());
            case Errno.EACCES, Errno.EPERM -> new AccessDeniedException(file.toString(), null, strerror(errno));
            default -> new ErrnoFileSystemException(file.toString(), strerror(errno), errno);
        };
    }

    /**
     * {@link #read} decoded as UTF-8: a byte sequence that is not UTF-8 is refused, never replaced
     * (names in these files are bytes a kernel would see; they are kept or refused, not altered).
     */
    public static String readUtf8(Path file) throws IOException {
        byte[] bytes = read(file);
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
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
        try {
            MemorySegment text = (MemorySegment) Strerror.H.invokeExact(errno);
            return text.reinterpret(1024).getString(0);
        } catch (Throwable t) {
            return Errno.name(errno);
        }
    }

    /** libc's strerror, the text the JDK's I/O exceptions carry (glibc's strings for known errnos are static). */
    private static final class Strerror {
        static final MethodHandle H = Linker.nativeLinker().downcallHandle(
                Linker.nativeLinker().defaultLookup().find("strerror").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.JAVA_INT));
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
