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
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import jnr.constants.platform.OpenFlags;

/**
 * The one way vdpactl reads a file a user names (the fake's state and fault files, rehearsal
 * documents, memory layouts): a regular file of at most {@link #MAX_BYTES}, read whole.
 *
 * <p>A file that is not regular is never read: a FIFO neither blocks the open (a FIFO opened for reading waits for
 * a writer otherwise) nor is read, a character device such as /dev/zero is refused unread, and no more than the
 * bound is ever read of a file. Two ways lead there:
 * <ul>
 * <li>the JDK's (start-up): when the JDK's stat(2) says the path is a regular file, the JDK opens and reads it. Every
 * command on the fake backend reads its state this way, and the native way below costs a command's start the FFM
 * linker, three downcall stubs and their lambda forms, generated at run time even with the AOT cache (the largest
 * part of {@code fake dev list} that was the fake's own: docs/benchmarks.md, part startup). Its one gap: a FIFO renamed over the path between the stat and the open would make that open wait
 * for a writer (or Ctrl-C); nothing vdpactl does renames a FIFO anywhere.</li>
 * <li>the native way, for everything else: the file is opened with O_NONBLOCK through the Panama seam and its type
 * taken from the open descriptor, so that no rename between a check and the open can swap a FIFO in. Every failure
 * and every refusal comes from this way, whatever the JDK's way met first (the JDK's exceptions do not keep the
 * errno, which callers decide by: {@link ErrnoFileSystemException}), so both ways fail alike.</li>
 * </ul>
 */
public final class InputFile {
    /** The largest input file read: far above any state, fault or rehearsal document vdpactl writes. */
    public static final long MAX_BYTES = 16L << 20;

    private InputFile() {
    }

    /** The seam and open(2)'s flags, made on the native way's first use only (their classes start FFM's linker). */
    private static final class Native {
        static final PanamaSyscalls SYSCALLS = new PanamaSyscalls();
        static final int FLAGS = OpenFlags.O_RDONLY.intValue() | OpenFlags.O_NONBLOCK.intValue()
                | OpenFlags.O_NOCTTY.intValue() | OpenFlags.O_CLOEXEC.intValue();
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
        byte[] bytes = readRegular(file, maxBytes);
        return bytes != null ? bytes : readNative(file, maxBytes);
    }

    /**
     * The JDK's way: the bytes of {@code file} when the JDK's stat says it is a regular file and the JDK reads it
     * whole, else null (the native way then decides). A missing file in a directory is final here, as the native way
     * would answer it (a missing state or open-nodes file is common: a first run, no node open); the JDK reports
     * ENOTDIR (a file where the path needs a directory) as a missing file too, which callers tell apart by the errno.
     */
    static byte[] readRegular(Path file, long maxBytes) throws IOException {
        try {
            if (!Files.readAttributes(file, BasicFileAttributes.class).isRegularFile()) {
                return null;
            }
        } catch (NoSuchFileException e) {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null && Files.isDirectory(parent)) {
                throw new NoSuchFileException(file.toString());
            }
            return null;
        } catch (IOException e) {
            return null;
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteBuffer buf = ByteBuffer.allocate(64 * 1024);
            while (true) {
                buf.clear();
                int n = channel.read(buf);
                if (n < 0) {
                    return out.toByteArray();
                }
                if (out.size() + n > maxBytes) {
                    throw tooLarge(file, maxBytes);
                }
                out.write(buf.array(), 0, n);
            }
        } catch (RefusedException e) {
            throw e;
        } catch (IOException e) {
            return null;
        }
    }

    /** The native way (see the class comment). */
    static byte[] readNative(Path file, long maxBytes) throws IOException {
        int fd;
        try {
            fd = Native.SYSCALLS.open(file.toString(), Native.FLAGS);
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
            Native.SYSCALLS.close(fd);
        }
    }

    /**
     * The type of what {@code fd} has open: stat(2) of /proc/self/fd/N follows that link to the open
     * file itself, so it is the opened file's type whatever happened to the path since (fstat's answer).
     */
    private static FileStat statOfOpen(int fd, Path file) throws IOException {
        try {
            return Native.SYSCALLS.stat("/proc/self/fd/" + fd);
        } catch (SyscallException e) {
            if (e.errno() != Errno.ENOENT) {
                throw failure(file, e.errno());
            }
        }
        try {
            return Native.SYSCALLS.stat(file.toString()); // no /proc: the path's type, taken after the non-blocking open
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
                    n = Native.SYSCALLS.read(fd, buf);
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
