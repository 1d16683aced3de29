package org.vdpactl.lane;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.vdpactl.ffi.gen.libc.libc_h;
import org.vdpactl.mgmt.VdpaAttribute;
import org.vdpactl.mgmt.VdpaCommand;
import org.vdpactl.mgmt.VdpaAttributeSupport;
import org.vdpactl.netlink.GenlFamily;
import org.vdpactl.netlink.GenlPolicy;
import org.vdpactl.netlink.GenlSocket;
import org.vdpactl.sys.Errno;
import org.vdpactl.sys.SyscallException;
import org.vdpactl.sys.Syscalls;
import org.vdpactl.vhost.BackendFeature;
import org.vdpactl.vhost.VhostIoctl;

/**
 * Asks a kernel (or the fake, through the same seam) which parts of the vhost-vdpa and vdpa netlink
 * ABI it has, the way a user's program would see them. The result is a JSON-ready map
 * (schema "vdpactl-kernel-features/1") that scripts/lane-report turns into docs/kernel-matrix.md.
 *
 * <p>How an ioctl is judged present: every ioctl vhost_vdpa does not know falls through
 * vhost_dev_ioctl (which, for a non-owner, fails with EPERM first) to vhost_vdpa_vring_ioctl, which
 * reads a u32 vring index from the argument (EFAULT for a NULL argument, ENOBUFS for an index past
 * the last vring) and then returns ENOIOCTLCMD, which the VFS turns into ENOTTY. So each ioctl is
 * called on a fresh fd after VHOST_SET_OWNER, with an argument buffer whose first u32 is vring 0 and
 * whose eventfd fields are -1 (unbind): ENOTTY then means absent, anything else (success or another
 * errno) means the kernel dispatched it. The unknown-ioctl section records those three errnos as
 * seen, so the fake can be checked against them. Each fd is closed after one ioctl (vhost_vdpa
 * resets the device on release), so a probe leaves no state behind.
 */
public final class FeatureProbe {
    /** An ioctl number no kernel defines (vhost uses 0x00..0x85 so far). */
    private static final int UNKNOWN_NR = 0xFE;
    private static final Set<VhostIoctl> BEFORE_OWNER = EnumSet.of(VhostIoctl.SET_OWNER,
            VhostIoctl.SET_FORK_FROM_OWNER, VhostIoctl.GET_FORK_FROM_OWNER);
    /** struct vhost_vring_file {unsigned int index; int fd;}: fd -1 unbinds. */
    private static final Set<VhostIoctl> VRING_FILE = EnumSet.of(VhostIoctl.SET_VRING_KICK,
            VhostIoctl.SET_VRING_CALL, VhostIoctl.SET_VRING_ERR);
    /** Arguments that are a single int fd: -1 unbinds. */
    private static final Set<VhostIoctl> FD_ARG = EnumSet.of(VhostIoctl.SET_LOG_FD, VhostIoctl.VDPA_SET_CONFIG_CALL);

    private final Syscalls sys;

    public FeatureProbe(Syscalls sys) {
        this.sys = sys;
    }

    /** Probes the vhost-vdpa nodes (net first) and the vdpa netlink family. */
    public Map<String, Object> probe(String netNode, String blkNode) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("schema", "vdpactl-kernel-features/1");
        out.put("ioctls", ioctls(netNode));
        out.put("unknown_ioctl", unknownIoctl(netNode));
        Map<String, Object> bf = new LinkedHashMap<>();
        bf.put("net", backendFeatures(netNode));
        bf.put("blk", backendFeatures(blkNode));
        out.put("backend_features", bf);
        out.put("netlink", netlink());
        return out;
    }

    Map<String, Object> ioctls(String node) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (VhostIoctl io : VhostIoctl.values()) {
            String seen = callOnFreshFd(node, io.code(), !BEFORE_OWNER.contains(io), argFor(io));
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("present", !"ENOTTY".equals(seen));
            e.put("result", seen);
            out.put(io.kernelName(), e);
        }
        return out;
    }

    Map<String, Object> unknownIoctl(String node) {
        // _IOWR(VHOST_VIRTIO, nr, 8 bytes), as asm-generic/ioctl.h encodes it (the client's Ioc is internal)
        long code = (3L << 30) | (8L << 16) | ((long) VhostIoctl.VHOST_VIRTIO << 8) | UNKNOWN_NR;
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("not_owner", callOnFreshFd(node, code, false, ArgKind.VRING0));
        out.put("owner_null_argument", callOnFreshFd(node, code, true, ArgKind.NULL));
        out.put("owner_vring_index_past_last", callOnFreshFd(node, code, true, ArgKind.BAD_VRING));
        out.put("owner_vring_0", callOnFreshFd(node, code, true, ArgKind.VRING0));
        return out;
    }

    Map<String, Object> backendFeatures(String node) {
        Map<String, Object> out = new LinkedHashMap<>();
        int fd = sys.open(node, libc_h.O_RDWR() | libc_h.O_CLOEXEC());
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment v = arena.allocate(ValueLayout.JAVA_LONG);
            sys.ioctl(fd, VhostIoctl.GET_BACKEND_FEATURES.code(), v);
            long bits = v.get(ValueLayout.JAVA_LONG, 0);
            out.put("offered", "0x" + Long.toHexString(bits));
            Map<String, Object> named = new LinkedHashMap<>();
            long known = 0;
            for (BackendFeature f : BackendFeature.values()) {
                named.put(f.kernelName(), (bits & f.mask()) != 0);
                known |= f.mask();
            }
            out.put("bits", named);
            out.put("unknown_bits", "0x" + Long.toHexString(bits & ~known));
        } finally {
            sys.close(fd);
        }
        return out;
    }

    Map<String, Object> netlink() {
        Map<String, Object> out = new LinkedHashMap<>();
        try (GenlSocket s = GenlSocket.open(sys)) {
            GenlFamily f = s.resolveFamily("vdpa");
            out.put("family_version", f.version());
            out.put("maxattr", f.maxAttr());
            Map<String, Object> cmds = new LinkedHashMap<>();
            for (VdpaCommand c : VdpaCommand.values()) {
                if (c == VdpaCommand.UNSPEC) {
                    continue;
                }
                GenlFamily.Op op = f.ops().stream().filter(o -> o.cmd() == c.number()).findFirst().orElse(null);
                Map<String, Object> e = new LinkedHashMap<>();
                e.put("present", op != null);
                if (op != null) {
                    e.put("do", op.canDo());
                    e.put("dump", op.canDump());
                    e.put("admin", op.requiresAdmin());
                }
                cmds.put(c.constantName(), e);
            }
            out.put("commands", cmds);
            Map<String, Object> attrs = new LinkedHashMap<>();
            for (VdpaAttribute a : VdpaAttribute.values()) {
                if (a.number() == 0) {
                    continue;
                }
                // The family's maxattr is the last attribute of that kernel's enum vdpa_attr.
                // An insertion-ordered map: the committed record must not change its key order per run.
                Map<String, Object> e = new LinkedHashMap<>();
                e.put("present", a.number() <= f.maxAttr());
                e.put("number", a.number());
                attrs.put("VDPA_ATTR_" + a.name(), e);
            }
            out.put("attributes", attrs);
            out.put("policy", policy(VdpaAttributeSupport.probe(f, () -> GenlPolicy.dump(s, "vdpa"))));
        }
        return out;
    }

    /**
     * Per command, the attributes its do request may carry (nlctrl's policy dump,
     * kernel-abi.md §7.6), or the maxattr fallback with the kernel's refusal.
     */
    static Map<String, Object> policy(VdpaAttributeSupport support) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("source", support.source() == VdpaAttributeSupport.Source.POLICY_DUMP ? "CTRL_CMD_GETPOLICY" : "maxattr");
        support.fallbackReason().ifPresent(r -> out.put("fallback_reason", r));
        Map<String, Object> cmds = new LinkedHashMap<>();
        for (GenlFamily.Op op : support.family().ops()) {
            VdpaCommand.of(op.cmd()).ifPresent(c -> cmds.put(c.constantName(),
                    support.accepted(c).stream().map(VdpaAttribute::constantName).toList()));
        }
        out.put("request_attributes", cmds);
        return out;
    }

    private enum ArgKind { NULL, VRING0, BAD_VRING, VRING_FILE, FD }

    private static ArgKind argFor(VhostIoctl io) {
        if (io.argSize() == 0 && io.direction() == 0) { // _IOC_NONE
            // _IO ioctls (SET_OWNER, RESET_OWNER, SUSPEND, RESUME) still get a vring-0 buffer: with a
            // NULL argument an ioctl a kernel lacks fails with EFAULT instead of ENOTTY.
            return ArgKind.VRING0;
        }
        if (VRING_FILE.contains(io)) {
            return ArgKind.VRING_FILE;
        }
        return FD_ARG.contains(io) ? ArgKind.FD : ArgKind.VRING0;
    }

    /** A zeroed 256-byte argument (vring index 0) with one int set. */
    private static MemorySegment withInt(Arena arena, long offset, int value) {
        MemorySegment m = arena.allocate(256);
        m.set(ValueLayout.JAVA_INT, offset, value);
        return m;
    }

    /** Opens the node, optionally becomes owner, calls the ioctl once; returns "ok" or the errno name. */
    private String callOnFreshFd(String node, long code, boolean owner, ArgKind kind) {
        int fd = sys.open(node, libc_h.O_RDWR() | libc_h.O_CLOEXEC());
        try (Arena arena = Arena.ofConfined()) {
            if (owner) {
                sys.ioctl(fd, VhostIoctl.SET_OWNER.code(), MemorySegment.NULL);
            }
            MemorySegment arg = switch (kind) {
                case NULL -> MemorySegment.NULL;
                case VRING0 -> arena.allocate(256);
                case BAD_VRING -> withInt(arena, 0, 0x7fff_ffff);
                case VRING_FILE -> withInt(arena, 4, -1);
                case FD -> withInt(arena, 0, -1);
            };
            try {
                sys.ioctl(fd, code, arg);
                return "ok";
            } catch (SyscallException e) {
                return Errno.name(e.errno());
            }
        } finally {
            sys.close(fd);
        }
    }
}
