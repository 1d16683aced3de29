package org.vdpactl.vhost;

import java.util.List;
import org.vdpactl.sys.Errno;

/**
 * What a user can do about a vhost-vdpa errno: the hint line of {@link VhostException}. Facts from
 * kernel-abi.md §1–§5 (Linux 6.12/7.2).
 */
final class VhostErrorHints {
    /** Every reason the kernel folds into an IOTLB write's EFAULT (§5.4). */
    public static final String IOTLB_EFAULT_CAUSES = "the kernel reports every IOTLB handler error as EFAULT; likely causes: "
            + "the range overlaps an existing mapping (EEXIST; invalidate it first), "
            + "the range lies outside GET_IOVA_RANGE or iova+size wraps (EINVAL), "
            + "unknown ASID (asid >= GET_AS_NUM, or INVALIDATE/BATCH_END on an ASID never mapped), "
            + "a batch for another ASID is open (send BATCH_END first), "
            + "this process is not the owner (VHOST_SET_OWNER missing), "
            + "the 2048-entry limit of the address space is reached (ENOSPC), "
            + "a PA-mode device could not pin the memory (RLIMIT_MEMLOCK, unmapped uaddr), "
            + "or the message type is not UPDATE/INVALIDATE/BATCH_BEGIN/BATCH_END";

    private VhostErrorHints() {
    }

    /** Hint for a failed open(2) of a node. */
    public static String forOpen(String path, int errno) {
        return forOpen(path, errno, List.of());
    }

    /** Hint for a failed open(2) of a node; {@code holders} name who has it open ("pid N (command)"), when known. */
    public static String forOpen(String path, int errno, List<String> holders) {
        return switch (errno) {
            case Errno.EBUSY -> (holders.isEmpty()
                    ? "the device is already open elsewhere (QEMU, another vdpactl, or an earlier handle in this process)"
                    : "held open by " + String.join(", ", holders))
                    + ": vhost-vdpa allows exactly one open file per node";
            case Errno.ENXIO -> "the node is stale: its vDPA device was deleted (vdpa dev show lists the current ones)";
            case Errno.ENOENT -> "no such node: the vDPA device may not exist or be bound to virtio_vdpa instead of vhost_vdpa"
                    + " (vdpactl resolves names like vdpa0 via /sys/bus/vdpa/devices)";
            case Errno.EACCES, Errno.EPERM -> "vhost-vdpa nodes are root-only (crw------- root) by default: run as root,"
                    + " chmod/chown the node, or have a privileged parent pass the fd in (fromFd)";
            default -> null;
        };
    }

    /**
     * Hint for a failed ioctl. {@code owner} is whether this handle called SET_OWNER (null: unknown);
     * {@code vqs}/{@code ases} are known counts or -1.
     */
    public static String forIoctl(VhostIoctl op, int errno, Boolean owner, int vqs, int ases) {
        switch (errno) {
            case Errno.EPERM:
                if (op == VhostIoctl.VDPA_RESUME) {
                    return "not the owner, or the kernel predates VHOST_VDPA_RESUME (6.1 treats it as an unknown per-vq ioctl)";
                }
                return Boolean.TRUE.equals(owner)
                        ? "this process is not the owner: the owner is the process that called VHOST_SET_OWNER (a forked"
                                + " child is not), or run as root"
                        : "per-vq ioctls need ownership: call VHOST_SET_OWNER first (or run as root)";
            case Errno.EBUSY:
                if (op == VhostIoctl.SET_OWNER) {
                    return "the device already has an owner (there is no working RESET_OWNER; close and reopen the node)";
                }
                if (op == VhostIoctl.SET_FEATURES) {
                    return "FEATURES_OK is already set: reset the device (SET_STATUS 0) before setting features again";
                }
                if (op == VhostIoctl.VDPA_SET_GROUP_ASID) {
                    return "DRIVER_OK is set (7.2+): bind groups to ASIDs before DRIVER_OK, or reset first";
                }
                return null;
            case Errno.EOPNOTSUPP:
                if (op.gate() != null) {
                    // the ioctl needs a capability the device advertises by a backend bit: the bit says which
                    return "the device does not offer " + op.gate().kernelName() + ": " + op.gate().absent();
                }
                return switch (op) {
                    case SET_BACKEND_FEATURES -> "a bit is unknown to this kernel or the device lacks the capability"
                            + " (compare with GET_BACKEND_FEATURES; ack only offered bits)";
                    case VDPA_GET_VRING_SIZE -> "the device does not report per-vq sizes (vdpa_sim: only with batch_mapping=0)";
                    case SET_VRING_ADDR -> "flags other than VHOST_VRING_F_LOG are not supported";
                    default -> null;
                };
            case Errno.EINVAL:
                return switch (op) {
                    case VDPA_SET_STATUS -> "status bits can only be added; reset with SET_STATUS 0 to clear them";
                    case SET_FEATURES -> "the device refused the features (vdpa devices need VIRTIO_F_ACCESS_PLATFORM, bit 33)";
                    case SET_VRING_NUM -> "ring size must be a power of two, 1..min(65535, GET_VRING_NUM)";
                    case SET_VRING_ADDR -> "avail must be 2-aligned, used and log 4-aligned; after DRIVER_OK the device must be"
                            + " suspended first (VHOST_VDPA_SUSPEND)";
                    case SET_VRING_BASE -> "split-ring base must be <= 0xFFFF; after DRIVER_OK the device must be suspended"
                            + " first (VHOST_VDPA_SUSPEND)";
                    case VDPA_GET_CONFIG, VDPA_SET_CONFIG -> "length must be > 0 and offset+length within GET_CONFIG_SIZE";
                    case VDPA_SET_GROUP_ASID -> "group must be < GET_GROUP_NUM and asid < GET_AS_NUM"
                            + (ases > 0 ? " (" + ases + " address spaces)" : "");
                    case SET_VRING_KICK, SET_VRING_CALL, VDPA_SET_CONFIG_CALL -> "the fd is not an eventfd";
                    case SET_BACKEND_FEATURES -> "DESC_ASID needs IOTLB_ASID in the same ack";
                    default -> null;
                };
            case Errno.ENOBUFS:
                return "virtqueue index out of range" + (vqs > 0 ? ": the device has " + vqs + " vqs (0.." + (vqs - 1) + ")" : "")
                        + (op == VhostIoctl.VDPA_SET_GROUP_ASID ? "; SET_GROUP_ASID checks the group against the vq count too" : "");
            case Errno.EBADF:
                // only the eventfd-taking ioctls look up a second fd; for any other call the handle's own fd is bad
                return switch (op) {
                    case SET_VRING_KICK, SET_VRING_CALL, VDPA_SET_CONFIG_CALL -> "the eventfd is not an open file descriptor";
                    default -> "the device's file descriptor is not open (with --fd: the parent must pass it open and"
                            + " without FD_CLOEXEC)";
                };
            case Errno.EFAULT:
                // 6.1 has no RESUME ioctl (kernel-abi.md §3.4): an owner's call reaches the per-vq ioctls, which read
                // a vq index from the argument RESUME does not have (0): not the caller's bad pointer
                return op == VhostIoctl.VDPA_RESUME
                        ? "this kernel predates VHOST_VDPA_RESUME (Linux 6.4; the device offers no VHOST_BACKEND_F_RESUME):"
                                + " 6.1 takes it for a per-vq ioctl and reads a vq index from its null argument, hence"
                                + " EFAULT; reset the device and replay the vring state instead"
                        : null;
            case Errno.ENOTTY:
                return "this kernel does not handle " + op.kernelName() + " on vhost-vdpa (too old, or not a vhost-vdpa fd)";
            case Errno.EIO:
                // vhost-vdpa itself returns EIO only for a group number out of range; elsewhere it is the driver's error
                return switch (op) {
                    case VDPA_GET_VRING_GROUP, VDPA_GET_VRING_DESC_GROUP ->
                            "the device reported a group number >= GET_GROUP_NUM (driver bug)";
                    default -> "the parent driver failed the operation (an I/O error of the device or its firmware:"
                            + " see the kernel log, dmesg)";
                };
            default:
                return null;
        }
    }

    /**
     * Hint for a failed IOTLB write(2). {@code owner}, {@code range} and {@code ases} are what the
     * handle knows (null/-1 when unknown); causes they rule in are named first. {@code mapBytes} is
     * what the failing mapping (or the whole plan it belongs to) needs pinned in PA mode.
     */
    public static String forIotlbWrite(IotlbMessage m, int errno, Boolean owner, IovaRange range, int ases, long mapBytes) {
        switch (errno) {
            case Errno.EFAULT: {
                StringBuilder likely = new StringBuilder();
                if (Boolean.FALSE.equals(owner)) {
                    likely.append("this handle never called VHOST_SET_OWNER; ");
                }
                if (ases > 0 && Integer.compareUnsigned(m.asid(), ases) >= 0) {
                    likely.append("ASID ").append(m.asid()).append(" >= GET_AS_NUM (").append(ases).append("); ");
                }
                if (range != null && m.messageType() == IotlbMessageType.UPDATE && !range.contains(m.iova(), m.size())) {
                    likely.append("the range is outside the IOVA range ").append(range).append("; ");
                }
                String memlock = m.messageType() == IotlbMessageType.UPDATE ? "; " + MemlockHint.of(mapBytes) : "";
                return (likely.isEmpty() ? "" : "most likely: " + likely) + IOTLB_EFAULT_CAUSES + memlock;
            }
            case Errno.ENOMEM:
                return MemlockHint.of(mapBytes);
            case Errno.EINVAL:
                return "malformed IOTLB message: shorter than 40 bytes, top-level type not VHOST_IOTLB_MSG/_V2,"
                        + " or UPDATE with size 0";
            case Errno.EBADF:
                return "the fd was not opened for writing (open vhost-vdpa nodes O_RDWR)";
            default:
                return null;
        }
    }
}
