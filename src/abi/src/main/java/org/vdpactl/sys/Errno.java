package org.vdpactl.sys;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Errno numbers vdpactl branches on, and symbolic names for all of them.
 *
 * <p>The numbers are Linux's generic ones (x86_64 and arm64 share them). Names and texts of the
 * others come from jnr-constants, so messages show "EBUSY (Device or resource busy)" rather than 16.
 * ENOTSUPP (524) is kernel-internal but leaks to userspace from mmap of vhost-vdpa; libc has no name
 * for it, so it is named here.
 */
public final class Errno {
    public static final int EPERM = 1;
    public static final int ENOENT = 2;
    public static final int EINTR = 4;
    public static final int EIO = 5;
    public static final int ENXIO = 6;
    public static final int E2BIG = 7;
    public static final int EBADF = 9;
    public static final int EAGAIN = 11;
    public static final int ENOMEM = 12;
    public static final int EACCES = 13;
    public static final int EFAULT = 14;
    public static final int EBUSY = 16;
    public static final int EEXIST = 17;
    public static final int ENODEV = 19;
    public static final int ENOTDIR = 20;
    public static final int EINVAL = 22;
    public static final int ENFILE = 23;
    public static final int EMFILE = 24;
    public static final int ENOTTY = 25;
    public static final int ENOSPC = 28;
    public static final int ESPIPE = 29;
    public static final int EROFS = 30;
    public static final int ERANGE = 34;
    public static final int ENAMETOOLONG = 36;
    public static final int ELOOP = 40;
    public static final int ENODATA = 61;
    public static final int EMSGSIZE = 90;
    public static final int EPROTONOSUPPORT = 93;
    public static final int EOPNOTSUPP = 95;
    public static final int EAFNOSUPPORT = 97;
    public static final int ENOBUFS = 105;
    public static final int ETIMEDOUT = 110;
    public static final int EDQUOT = 122;
    /** Kernel-internal "not supported"; leaks from vhost-vdpa mmap. */
    public static final int ENOTSUPP = 524;

    private Errno() {
    }

    /** The symbol, e.g. "EBUSY"; "E{@code <n>}" when unknown. */
    public static String name(int errno) {
        if (errno == ENOTSUPP) {
            return "ENOTSUPP";
        }
        if (errno == EOPNOTSUPP) {
            return "EOPNOTSUPP"; // jnr-constants may pick the alias ENOTSUP for 95
        }
        if (errno == EAGAIN) {
            return "EAGAIN"; // not the alias EWOULDBLOCK
        }
        jnr.constants.platform.Errno e = jnr.constants.platform.Errno.valueOf(errno);
        return e == null || e == jnr.constants.platform.Errno.__UNKNOWN_CONSTANT__ ? "E" + errno : e.name();
    }

    /** The errno number of a symbol ("EBUSY" → 16), or -1 when unknown. */
    public static int valueOf(String symbol) {
        String s = symbol.trim().toUpperCase(Locale.ROOT);
        if (s.equals("ENOTSUPP")) {
            return ENOTSUPP;
        }
        if (s.matches("\\d+")) {
            return Integer.parseInt(s);
        }
        try {
            jnr.constants.platform.Errno e = jnr.constants.platform.Errno.valueOf(s);
            return e.defined() ? e.intValue() : -1;
        } catch (IllegalArgumentException ex) {
            return -1;
        }
    }

    /** "EBUSY (Device or resource busy)". */
    public static String describe(int errno) {
        if (errno == ENOTSUPP) {
            return "ENOTSUPP (Operation not supported by the driver, kernel-internal errno 524)";
        }
        jnr.constants.platform.Errno e = jnr.constants.platform.Errno.valueOf(errno);
        String text = e == null || e == jnr.constants.platform.Errno.__UNKNOWN_CONSTANT__ ? "Unknown error " + errno : e.description();
        return name(errno) + " (" + text + ")";
    }

    /**
     * The errno behind a JDK I/O exception, or -1 when it has none. The JDK keeps only the text of
     * most errnos (strerror), so the text is mapped back through this libc's own strerror table.
     */
    public static int of(IOException e) {
        if (e instanceof InputFile.ErrnoFileSystemException f) {
            return f.errno();
        }
        if (e instanceof AccessDeniedException) {
            return EACCES;
        }
        if (e instanceof NoSuchFileException) {
            return ENOENT;
        }
        String text = e instanceof FileSystemException f && f.getReason() != null ? f.getReason() : e.getMessage();
        if (text != null && text.endsWith(JDK_ELOOP_SUFFIX)) {
            text = text.substring(0, text.length() - JDK_ELOOP_SUFFIX.length());
        }
        Integer n = text == null ? null : ByText.TABLE.get(text);
        return n == null ? -1 : n;
    }

    /** What the JDK appends to ELOOP's strerror text (sun.nio.fs.UnixException). */
    private static final String JDK_ELOOP_SUFFIX = " or unable to access attributes of symbolic link";

    private static final class ByText {
        static final Map<String, Integer> TABLE = table();

        private static Map<String, Integer> table() {
            Map<String, Integer> m = new HashMap<>();
            for (int n = 133; n >= 1; n--) {
                m.put(InputFile.strerror(n), n); // the lowest number wins an alias (EAGAIN over EWOULDBLOCK)
            }
            return Map.copyOf(m);
        }
    }
}
