package org.vdpactl.vhost;

import static org.vdpactl.vhost.Ioc.READ;
import static org.vdpactl.vhost.Ioc.WRITE;
import static org.vdpactl.vhost.Ioc.NONE;

import org.vdpactl.ffi.gen.vhost.vhost_memory;
import org.vdpactl.ffi.gen.vhost.vhost_vdpa_config;
import org.vdpactl.ffi.gen.vhost.vhost_vdpa_iova_range;
import org.vdpactl.ffi.gen.vhost.vhost_vring_addr;
import org.vdpactl.ffi.gen.vhost.vhost_vring_file;
import org.vdpactl.ffi.gen.vhost.vhost_vring_state;
import org.vdpactl.sys.IoctlNames;

/**
 * Every vhost / vhost-vdpa ioctl vdpactl knows, with its command number derived in this one place
 * from {@code _IOC(dir, 0xAF, nr, sizeof(arg))}. Argument sizes come from the jextract-generated
 * layouts, so a layout change shows up here; {@code VhostIoctlTest} checks every code against the
 * constants jextract evaluated from the kernel headers and against the spec's table.
 */
public enum VhostIoctl {
    GET_FEATURES("VHOST_GET_FEATURES", READ, 0x00, 8),
    SET_FEATURES("VHOST_SET_FEATURES", WRITE, 0x00, 8),
    SET_OWNER("VHOST_SET_OWNER", NONE, 0x01, 0),
    RESET_OWNER("VHOST_RESET_OWNER", NONE, 0x02, 0),
    SET_MEM_TABLE("VHOST_SET_MEM_TABLE", WRITE, 0x03, vhost_memory.layout().byteSize()),
    SET_LOG_BASE("VHOST_SET_LOG_BASE", WRITE, 0x04, 8),
    SET_LOG_FD("VHOST_SET_LOG_FD", WRITE, 0x07, 4),
    NEW_WORKER("VHOST_NEW_WORKER", READ, 0x08, 4),
    FREE_WORKER("VHOST_FREE_WORKER", WRITE, 0x09, 4),
    SET_VRING_NUM("VHOST_SET_VRING_NUM", WRITE, 0x10, vhost_vring_state.layout().byteSize()),
    SET_VRING_ADDR("VHOST_SET_VRING_ADDR", WRITE, 0x11, vhost_vring_addr.layout().byteSize()),
    SET_VRING_BASE("VHOST_SET_VRING_BASE", WRITE, 0x12, vhost_vring_state.layout().byteSize()),
    GET_VRING_BASE("VHOST_GET_VRING_BASE", READ | WRITE, 0x12, vhost_vring_state.layout().byteSize()),
    SET_VRING_ENDIAN("VHOST_SET_VRING_ENDIAN", WRITE, 0x13, vhost_vring_state.layout().byteSize()),
    /** Encoded _IOW although the kernel writes the answer back. */
    GET_VRING_ENDIAN("VHOST_GET_VRING_ENDIAN", WRITE, 0x14, vhost_vring_state.layout().byteSize()),
    ATTACH_VRING_WORKER("VHOST_ATTACH_VRING_WORKER", WRITE, 0x15, 8),
    GET_VRING_WORKER("VHOST_GET_VRING_WORKER", READ | WRITE, 0x16, 8),
    SET_VRING_KICK("VHOST_SET_VRING_KICK", WRITE, 0x20, vhost_vring_file.layout().byteSize()),
    SET_VRING_CALL("VHOST_SET_VRING_CALL", WRITE, 0x21, vhost_vring_file.layout().byteSize()),
    SET_VRING_ERR("VHOST_SET_VRING_ERR", WRITE, 0x22, vhost_vring_file.layout().byteSize()),
    SET_VRING_BUSYLOOP_TIMEOUT("VHOST_SET_VRING_BUSYLOOP_TIMEOUT", WRITE, 0x23, vhost_vring_state.layout().byteSize()),
    /** Encoded _IOW although the kernel writes the answer back. */
    GET_VRING_BUSYLOOP_TIMEOUT("VHOST_GET_VRING_BUSYLOOP_TIMEOUT", WRITE, 0x24, vhost_vring_state.layout().byteSize()),
    SET_BACKEND_FEATURES("VHOST_SET_BACKEND_FEATURES", WRITE, 0x25, 8),
    GET_BACKEND_FEATURES("VHOST_GET_BACKEND_FEATURES", READ, 0x26, 8),
    VDPA_GET_DEVICE_ID("VHOST_VDPA_GET_DEVICE_ID", READ, 0x70, 4),
    VDPA_GET_STATUS("VHOST_VDPA_GET_STATUS", READ, 0x71, 1),
    VDPA_SET_STATUS("VHOST_VDPA_SET_STATUS", WRITE, 0x72, 1),
    VDPA_GET_CONFIG("VHOST_VDPA_GET_CONFIG", READ, 0x73, vhost_vdpa_config.layout().byteSize()),
    VDPA_SET_CONFIG("VHOST_VDPA_SET_CONFIG", WRITE, 0x74, vhost_vdpa_config.layout().byteSize()),
    VDPA_SET_VRING_ENABLE("VHOST_VDPA_SET_VRING_ENABLE", WRITE, 0x75, vhost_vring_state.layout().byteSize()),
    VDPA_GET_VRING_NUM("VHOST_VDPA_GET_VRING_NUM", READ, 0x76, 2),
    VDPA_SET_CONFIG_CALL("VHOST_VDPA_SET_CONFIG_CALL", WRITE, 0x77, 4),
    VDPA_GET_IOVA_RANGE("VHOST_VDPA_GET_IOVA_RANGE", READ, 0x78, vhost_vdpa_iova_range.layout().byteSize()),
    VDPA_GET_CONFIG_SIZE("VHOST_VDPA_GET_CONFIG_SIZE", READ, 0x79, 4),
    VDPA_GET_AS_NUM("VHOST_VDPA_GET_AS_NUM", READ, 0x7A, 4),
    VDPA_GET_VRING_GROUP("VHOST_VDPA_GET_VRING_GROUP", READ | WRITE, 0x7B, vhost_vring_state.layout().byteSize()),
    VDPA_SET_GROUP_ASID("VHOST_VDPA_SET_GROUP_ASID", WRITE, 0x7C, vhost_vring_state.layout().byteSize()),
    VDPA_SUSPEND("VHOST_VDPA_SUSPEND", NONE, 0x7D, 0),
    VDPA_RESUME("VHOST_VDPA_RESUME", NONE, 0x7E, 0),
    VDPA_GET_VRING_DESC_GROUP("VHOST_VDPA_GET_VRING_DESC_GROUP", READ | WRITE, 0x7F, vhost_vring_state.layout().byteSize()),
    VDPA_GET_VQS_COUNT("VHOST_VDPA_GET_VQS_COUNT", READ, 0x80, 4),
    VDPA_GET_GROUP_NUM("VHOST_VDPA_GET_GROUP_NUM", READ, 0x81, 4),
    VDPA_GET_VRING_SIZE("VHOST_VDPA_GET_VRING_SIZE", READ | WRITE, 0x82, vhost_vring_state.layout().byteSize()),
    GET_FEATURES_ARRAY("VHOST_GET_FEATURES_ARRAY", READ, 0x83, 8),
    SET_FEATURES_ARRAY("VHOST_SET_FEATURES_ARRAY", WRITE, 0x83, 8),
    SET_FORK_FROM_OWNER("VHOST_SET_FORK_FROM_OWNER", WRITE, 0x84, 1),
    GET_FORK_FROM_OWNER("VHOST_GET_FORK_FROM_OWNER", READ, 0x85, 1);

    /** The ioctl "magic" of vhost: {@code VHOST_VIRTIO}. */
    public static final int VHOST_VIRTIO = 0xAF;

    private final String kernelName;
    private final int dir;
    private final int nr;
    private final long argSize;
    private final long code;

    VhostIoctl(String kernelName, int dir, int nr, long argSize) {
        this.kernelName = kernelName;
        this.dir = dir;
        this.nr = nr;
        this.argSize = argSize;
        this.code = Ioc.ioc(dir, VHOST_VIRTIO, nr, argSize);
    }

    /** The macro name in linux/vhost.h. */
    public String kernelName() {
        return kernelName;
    }

    /** The 32-bit command, zero-extended. */
    public long code() {
        return code;
    }

    public int direction() {
        return dir;
    }

    public int nr() {
        return nr;
    }

    /** sizeof the argument as encoded in the command (for flexible structs, the header only). */
    public long argSize() {
        return argSize;
    }

    private static final java.util.Map<Long, VhostIoctl> BY_CODE = new java.util.HashMap<>();

    static {
        for (VhostIoctl v : values()) {
            BY_CODE.put(v.code, v);
        }
    }

    /** Names for the seam's error texts: every vhost command by its linux/vhost.h macro. */
    public static IoctlNames names() {
        return new IoctlNames(c -> {
            VhostIoctl v = byCode(c);
            return v == null ? null : v.kernelName;
        });
    }

    /** The ioctl with this command, or null. */
    public static VhostIoctl byCode(long code) {
        return BY_CODE.get(code & 0xFFFF_FFFFL);
    }

    /** "VHOST_VDPA_SUSPEND" for known codes, "ioctl 0x…" otherwise. */
    public static String describe(long code) {
        VhostIoctl v = byCode(code);
        return v != null ? v.kernelName : String.format("ioctl 0x%08X", code & 0xFFFF_FFFFL);
    }
}
