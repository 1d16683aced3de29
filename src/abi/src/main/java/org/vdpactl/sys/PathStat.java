package org.vdpactl.sys;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Map;

/**
 * stat(2) of a path, the one way vdpactl asks it of the real kernel. The JDK's "unix" attribute
 * view makes that very stat(2) call on the calling thread (so a thread's filesystem uid still
 * decides what it may see) and hands back st_mode, st_uid, st_gid and st_rdev, so no native binding
 * of our own and no JNR (whose jnr-ffi drags ASM into every user's class path) is needed for it.
 * Only these four fields are asked for: "unix:*" would also look the owner's name up in the user
 * database.
 */
public final class PathStat {
    private static final String ATTRIBUTES = "unix:mode,uid,gid,rdev";
    // st_mode's file-type bits (linux/stat.h)
    private static final int S_IFMT = 0170000;
    private static final int S_IFSOCK = 0140000;
    private static final int S_IFLNK = 0120000;
    private static final int S_IFREG = 0100000;
    private static final int S_IFBLK = 0060000;
    private static final int S_IFDIR = 0040000;
    private static final int S_IFCHR = 0020000;
    private static final int S_IFIFO = 0010000;

    private PathStat() {
    }

    /**
     * The stat of {@code path}, following symbolic links.
     *
     * @throws SyscallException with the errno of the failed stat(2) (ENOENT, EACCES, ELOOP, ...; EIO when the
     *                          JDK's message names no errno this libc knows). ENOTDIR arrives as ENOENT: the
     *                          JDK reports both as NoSuchFileException, and for a node path both mean "no such node".
     */
    public static FileStat of(String path) {
        Map<String, Object> a;
        try {
            a = Files.readAttributes(Path.of(path), ATTRIBUTES);
        } catch (IOException e) {
            int errno = Errno.of(e);
            throw new SyscallException("stat " + path, errno < 0 ? Errno.EIO : errno);
        } catch (InvalidPathException e) {
            throw new SyscallException("stat " + path, Errno.ENOENT); // a NUL byte: no such path can exist
        }
        int mode = (Integer) a.get("mode");
        FileStat.Type type = typeOf(mode);
        boolean device = type == FileStat.Type.CHAR_DEVICE || type == FileStat.Type.BLOCK_DEVICE;
        long rdev = (Long) a.get("rdev");
        return new FileStat(type, mode & 07777, (Integer) a.get("uid"), (Integer) a.get("gid"),
                device ? major(rdev) : 0, device ? minor(rdev) : 0);
    }

    /** glibc's gnu_dev_major: the kernel's new_encode_dev layout of a 64-bit dev_t. */
    static int major(long rdev) {
        return (int) (((rdev >>> 8) & 0xFFF) | ((rdev >>> 32) & ~0xFFFL));
    }

    /** glibc's gnu_dev_minor. */
    static int minor(long rdev) {
        return (int) ((rdev & 0xFF) | ((rdev >>> 12) & ~0xFFL));
    }

    static FileStat.Type typeOf(int mode) {
        return switch (mode & S_IFMT) {
            case S_IFCHR -> FileStat.Type.CHAR_DEVICE;
            case S_IFBLK -> FileStat.Type.BLOCK_DEVICE;
            case S_IFDIR -> FileStat.Type.DIRECTORY;
            case S_IFREG -> FileStat.Type.REGULAR;
            case S_IFIFO -> FileStat.Type.FIFO;
            case S_IFSOCK -> FileStat.Type.SOCKET;
            case S_IFLNK -> FileStat.Type.SYMLINK;
            default -> FileStat.Type.OTHER;
        };
    }
}
