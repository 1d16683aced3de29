package org.vdpactl.fake;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.vdpactl.fake.errno.KernelError;
import org.vdpactl.sys.Errno;

/**
 * Owner, group and mode of the fake's /dev nodes: devtmpfs's root:root 0600, changed by
 * {@link NodePermissionRule}s (the udev rules of the modelled host); and open(2)'s permission
 * check of a node against a process's {@link Credentials} (generic_permission).
 */
final class DevNodePermissions {
    /** Owner, group and mode of one node. */
    record Attributes(int uid, int gid, int mode) {
    }

    private static final Attributes DEVTMPFS = new Attributes(0, 0, 0600);

    private final List<NodePermissionRule> rules = new CopyOnWriteArrayList<>();

    void add(NodePermissionRule rule) {
        rules.add(rule);
    }

    /** The node's attributes: the last matching rule's, else devtmpfs's. */
    Attributes of(String nodeName) {
        Attributes a = DEVTMPFS;
        for (NodePermissionRule r : rules) {
            if (r.matches(nodeName)) {
                a = new Attributes(r.uid(), r.gid(), r.mode());
            }
        }
        return a;
    }

    /**
     * generic_permission for open(2) of a file with {@code a}: the owner's bits if the fsuid owns it,
     * else the group's if the process is in its group, else the others'; CAP_DAC_OVERRIDE passes.
     * EACCES names what was missing.
     */
    static void checkOpen(String path, Attributes a, Credentials c, int accessMode) {
        if (c.overridesFileModes()) {
            return;
        }
        int bits;
        if (c.uid() == a.uid()) {
            bits = (a.mode() >> 6) & 7;
        } else if (c.inGroup(a.gid())) {
            bits = (a.mode() >> 3) & 7;
        } else {
            bits = a.mode() & 7;
        }
        int need = switch (accessMode) {
            case 0 -> 4;   // O_RDONLY
            case 1 -> 2;   // O_WRONLY
            default -> 6;  // O_RDWR
        };
        if ((bits & need) != need) {
            throw KernelError.of(Errno.EACCES, String.format("%s is %04o %d:%d; uid %d gid %d %s may not open it for %s",
                    path, a.mode(), a.uid(), a.gid(), c.uid(), c.gid(), c.groups(),
                    accessMode == 0 ? "reading" : accessMode == 1 ? "writing" : "reading and writing"));
        }
    }
}
