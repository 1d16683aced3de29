package org.vdpactl.fake;

/**
 * One resource limit of a fake process, as getrlimit(2) returns it: the soft limit the kernel
 * enforces and the hard limit an unprivileged process may raise its soft limit up to.
 * {@link #UNLIMITED} is RLIM_INFINITY.
 *
 * @param soft rlim_cur
 * @param hard rlim_max
 */
public record ResourceLimit(long soft, long hard) {
    /** RLIM_INFINITY. */
    public static final long UNLIMITED = Long.MAX_VALUE;

    /**
     * RLIMIT_NOFILE of a login on a systemd host (systemd 240 and later): soft 1024 for select(2)'s
     * sake, hard 524288 (fs.nr_open's default is 1048576).
     */
    public static final ResourceLimit SYSTEMD_NOFILE = new ResourceLimit(1024, 524_288);

    /** Both limits at {@code value}. */
    public static ResourceLimit of(long value) {
        return new ResourceLimit(value, value);
    }

    /** What HotSpot does at start-up (-XX:+MaxFDLimit, on by default on Linux): the soft limit raised to the hard one. */
    public ResourceLimit raisedToHard() {
        return new ResourceLimit(hard, hard);
    }

    @Override
    public String toString() {
        return name(soft) + " (hard " + name(hard) + ")";
    }

    private static String name(long v) {
        return v == UNLIMITED ? "unlimited" : String.valueOf(v);
    }
}
