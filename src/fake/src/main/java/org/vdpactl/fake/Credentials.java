package org.vdpactl.fake;

import java.util.ArrayList;
import java.util.List;

/**
 * Who a fake process is for file permissions: its filesystem uid and gid and supplementary groups
 * (what generic_permission compares with a node's owner, group and mode). uid 0 stands for root with
 * CAP_DAC_OVERRIDE, which reads and writes any device node whatever its mode.
 *
 * @param uid    fsuid
 * @param gid    fsgid
 * @param groups supplementary group ids
 */
public record Credentials(int uid, int gid, List<Integer> groups) {
    /** root, the default of every fake process (vdpactl's operators run it as root). */
    public static final Credentials ROOT = new Credentials(0, 0, List.of());

    public Credentials {
        groups = List.copyOf(groups);
    }

    /** An unprivileged user with no supplementary groups (e.g. 65534, "nobody"). */
    public static Credentials user(int uid, int gid) {
        return new Credentials(uid, gid, List.of());
    }

    /** The same user, also a member of {@code gid} (what `usermod -aG kvm` gives). */
    public Credentials withGroup(int gid) {
        List<Integer> g = new ArrayList<>(groups);
        g.add(gid);
        return new Credentials(uid, this.gid, g);
    }

    /** uid 0: the fake gives root every capability (CAP_DAC_OVERRIDE, CAP_NET_ADMIN) and nobody else any. */
    public boolean isRoot() {
        return uid == 0;
    }

    /** CAP_DAC_OVERRIDE. */
    public boolean overridesFileModes() {
        return isRoot();
    }

    /** in_group_p: the fsgid or a supplementary group. */
    public boolean inGroup(int group) {
        return gid == group || groups.contains(group);
    }
}
