package org.vdpactl.vhost;

/**
 * Linux's {@code _IOC(dir, type, nr, size)} encoding of ioctl commands (asm-generic/ioctl.h,
 * used by x86_64 and arm64): {@code dir << 30 | size << 16 | type << 8 | nr}.
 * The result is the unsigned 32-bit command as a long.
 */
final class Ioc {
    public static final int NONE = 0;
    public static final int WRITE = 1;
    public static final int READ = 2;

    private Ioc() {
    }

    public static long ioc(int dir, int type, int nr, long size) {
        if (size < 0 || size >= (1 << 14)) {
            throw new IllegalArgumentException("ioctl size out of range: " + size);
        }
        return ((long) dir << 30) | (size << 16) | ((long) type << 8) | nr;
    }

    public static long io(int type, int nr) {
        return ioc(NONE, type, nr, 0);
    }

    public static long ior(int type, int nr, long size) {
        return ioc(READ, type, nr, size);
    }

    public static long iow(int type, int nr, long size) {
        return ioc(WRITE, type, nr, size);
    }

    public static long iowr(int type, int nr, long size) {
        return ioc(READ | WRITE, type, nr, size);
    }

    public static int dir(long cmd) {
        return (int) ((cmd >>> 30) & 3);
    }

    public static int size(long cmd) {
        return (int) ((cmd >>> 16) & 0x3FFF);
    }

    public static int type(long cmd) {
        return (int) ((cmd >>> 8) & 0xFF);
    }

    public static int nr(long cmd) {
        return (int) (cmd & 0xFF);
    }
}
