package org.vdpactl.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Who runs vdpactl, as the kernel sees the process: filesystem uid and gid, supplementary groups and
 * whether CAP_NET_ADMIN is in its effective set. The fake backend's process takes these, so that an
 * unprivileged user's {@code dev add} fails with EPERM on the fake as it does on the kernel.
 *
 * @param uid          fsuid
 * @param gid          fsgid
 * @param groups       supplementary groups
 * @param capNetAdmin  CAP_NET_ADMIN effective
 */
public record CallerIdentity(int uid, int gid, List<Integer> groups, boolean capNetAdmin) {
    /** CAP_NET_ADMIN's bit in the capability sets (include/uapi/linux/capability.h). */
    static final int CAP_NET_ADMIN = 12;

    public CallerIdentity {
        groups = List.copyOf(groups);
    }

    /** root with every capability: what the fake assumed before it knew its caller, and the answer where /proc is not readable. */
    public static final CallerIdentity ROOT = new CallerIdentity(0, 0, List.of(), true);

    /** This process, from /proc/self/status (the fourth Uid/Gid field is the filesystem one). */
    public static CallerIdentity current() {
        try {
            return parse(Files.readAllLines(Path.of("/proc/self/status")));
        } catch (IOException | RuntimeException e) {
            return ROOT;
        }
    }

    static CallerIdentity parse(List<String> status) {
        int uid = -1;
        int gid = -1;
        List<Integer> groups = new ArrayList<>();
        boolean netAdmin = false;
        for (String line : status) {
            String[] f = line.split("\\s+");
            switch (f[0]) {
                case "Uid:" -> uid = Integer.parseInt(f[4]);
                case "Gid:" -> gid = Integer.parseInt(f[4]);
                case "Groups:" -> {
                    for (int i = 1; i < f.length; i++) {
                        groups.add(Integer.parseInt(f[i]));
                    }
                }
                case "CapEff:" -> netAdmin = (Long.parseUnsignedLong(f[1], 16) & (1L << CAP_NET_ADMIN)) != 0;
                default -> { }
            }
        }
        if (uid < 0 || gid < 0) {
            throw new IllegalArgumentException("no Uid/Gid line in /proc/self/status");
        }
        return new CallerIdentity(uid, gid, groups, netAdmin);
    }
}
