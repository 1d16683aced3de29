package org.vdpactl.vhost;

import java.util.EnumMap;
import java.util.Map;

import org.vdpactl.abi.UapiIoctl;
import org.vdpactl.ffi.gen.vhost.vhost_h;

/**
 * Every vhost / vhost-vdpa ioctl the client issues, each the ABI's {@link UapiIoctl} (whose request number
 * jextract evaluated from the kernel headers: no number is typed here). Direction, number and argument size
 * are read back from the request, as the kernel's {@code _IOC_*} macros do; {@code VhostIoctlTest} derives every
 * code by hand with {@code _IOC(dir, 0xAF, nr, sizeof(arg))} from the generated layouts (the oracle) and checks
 * it against the table of docs/spec/kernel-abi.md §2.
 */
public enum VhostIoctl {
    GET_FEATURES(UapiIoctl.VHOST_GET_FEATURES),
    SET_FEATURES(UapiIoctl.VHOST_SET_FEATURES),
    SET_OWNER(UapiIoctl.VHOST_SET_OWNER),
    RESET_OWNER(UapiIoctl.VHOST_RESET_OWNER),
    SET_MEM_TABLE(UapiIoctl.VHOST_SET_MEM_TABLE),
    SET_LOG_BASE(UapiIoctl.VHOST_SET_LOG_BASE),
    SET_LOG_FD(UapiIoctl.VHOST_SET_LOG_FD),
    NEW_WORKER(UapiIoctl.VHOST_NEW_WORKER),
    FREE_WORKER(UapiIoctl.VHOST_FREE_WORKER),
    SET_VRING_NUM(UapiIoctl.VHOST_SET_VRING_NUM),
    SET_VRING_ADDR(UapiIoctl.VHOST_SET_VRING_ADDR),
    SET_VRING_BASE(UapiIoctl.VHOST_SET_VRING_BASE),
    GET_VRING_BASE(UapiIoctl.VHOST_GET_VRING_BASE),
    SET_VRING_ENDIAN(UapiIoctl.VHOST_SET_VRING_ENDIAN),
    /** Encoded _IOW although the kernel writes the answer back. */
    GET_VRING_ENDIAN(UapiIoctl.VHOST_GET_VRING_ENDIAN),
    ATTACH_VRING_WORKER(UapiIoctl.VHOST_ATTACH_VRING_WORKER),
    GET_VRING_WORKER(UapiIoctl.VHOST_GET_VRING_WORKER),
    SET_VRING_KICK(UapiIoctl.VHOST_SET_VRING_KICK),
    SET_VRING_CALL(UapiIoctl.VHOST_SET_VRING_CALL),
    SET_VRING_ERR(UapiIoctl.VHOST_SET_VRING_ERR),
    SET_VRING_BUSYLOOP_TIMEOUT(UapiIoctl.VHOST_SET_VRING_BUSYLOOP_TIMEOUT),
    /** Encoded _IOW although the kernel writes the answer back. */
    GET_VRING_BUSYLOOP_TIMEOUT(UapiIoctl.VHOST_GET_VRING_BUSYLOOP_TIMEOUT),
    SET_BACKEND_FEATURES(UapiIoctl.VHOST_SET_BACKEND_FEATURES),
    GET_BACKEND_FEATURES(UapiIoctl.VHOST_GET_BACKEND_FEATURES),
    VDPA_GET_DEVICE_ID(UapiIoctl.VHOST_VDPA_GET_DEVICE_ID),
    VDPA_GET_STATUS(UapiIoctl.VHOST_VDPA_GET_STATUS),
    VDPA_SET_STATUS(UapiIoctl.VHOST_VDPA_SET_STATUS),
    VDPA_GET_CONFIG(UapiIoctl.VHOST_VDPA_GET_CONFIG),
    VDPA_SET_CONFIG(UapiIoctl.VHOST_VDPA_SET_CONFIG),
    VDPA_SET_VRING_ENABLE(UapiIoctl.VHOST_VDPA_SET_VRING_ENABLE),
    VDPA_GET_VRING_NUM(UapiIoctl.VHOST_VDPA_GET_VRING_NUM),
    VDPA_SET_CONFIG_CALL(UapiIoctl.VHOST_VDPA_SET_CONFIG_CALL),
    VDPA_GET_IOVA_RANGE(UapiIoctl.VHOST_VDPA_GET_IOVA_RANGE),
    VDPA_GET_CONFIG_SIZE(UapiIoctl.VHOST_VDPA_GET_CONFIG_SIZE),
    VDPA_GET_AS_NUM(UapiIoctl.VHOST_VDPA_GET_AS_NUM),
    VDPA_GET_VRING_GROUP(UapiIoctl.VHOST_VDPA_GET_VRING_GROUP),
    VDPA_SET_GROUP_ASID(UapiIoctl.VHOST_VDPA_SET_GROUP_ASID),
    VDPA_SUSPEND(UapiIoctl.VHOST_VDPA_SUSPEND),
    VDPA_RESUME(UapiIoctl.VHOST_VDPA_RESUME),
    VDPA_GET_VRING_DESC_GROUP(UapiIoctl.VHOST_VDPA_GET_VRING_DESC_GROUP),
    VDPA_GET_VQS_COUNT(UapiIoctl.VHOST_VDPA_GET_VQS_COUNT),
    VDPA_GET_GROUP_NUM(UapiIoctl.VHOST_VDPA_GET_GROUP_NUM),
    VDPA_GET_VRING_SIZE(UapiIoctl.VHOST_VDPA_GET_VRING_SIZE),
    GET_FEATURES_ARRAY(UapiIoctl.VHOST_GET_FEATURES_ARRAY),
    SET_FEATURES_ARRAY(UapiIoctl.VHOST_SET_FEATURES_ARRAY),
    SET_FORK_FROM_OWNER(UapiIoctl.VHOST_SET_FORK_FROM_OWNER),
    GET_FORK_FROM_OWNER(UapiIoctl.VHOST_GET_FORK_FROM_OWNER);

    /** The ioctl "magic" of vhost: {@code VHOST_VIRTIO}. */
    public static final int VHOST_VIRTIO = vhost_h.VHOST_VIRTIO();

    private static final Map<UapiIoctl, VhostIoctl> BY_UAPI = new EnumMap<>(UapiIoctl.class);

    static {
        for (VhostIoctl v : values()) {
            BY_UAPI.put(v.uapi, v);
        }
    }

    private final UapiIoctl uapi;

    VhostIoctl(UapiIoctl uapi) {
        this.uapi = uapi;
    }

    /** The kernel's ioctl (linux/vhost.h) this is. */
    public UapiIoctl uapi() {
        return uapi;
    }

    /**
     * The backend feature the device must offer for this ioctl to do anything, or null: without it vhost-vdpa
     * answers EOPNOTSUPP ({@link UapiIoctl#gate()}, where the gate is declared).
     */
    public BackendFeature gate() {
        return uapi.gate() == null ? null : BackendFeature.of(uapi.gate());
    }

    /** The macro name in linux/vhost.h. */
    public String kernelName() {
        return uapi.name();
    }

    /** The 32-bit command, zero-extended. */
    public long code() {
        return uapi.request();
    }

    /** {@link Ioc#NONE}, {@link Ioc#WRITE}, {@link Ioc#READ} or both ({@code _IOC_DIR}). */
    public int direction() {
        return Ioc.dir(code());
    }

    /** {@code _IOC_NR}. */
    public int nr() {
        return Ioc.nr(code());
    }

    /** sizeof the argument as encoded in the command (for flexible structs, the header only). */
    public long argSize() {
        return Ioc.size(code());
    }

    /** The ioctl with this command, or null. */
    public static VhostIoctl byCode(long code) {
        UapiIoctl io = UapiIoctl.forRequest(code);
        return io == null ? null : BY_UAPI.get(io);
    }

    /** "VHOST_VDPA_SUSPEND" for known codes, "ioctl 0x…" otherwise. */
    public static String describe(long code) {
        VhostIoctl v = byCode(code);
        return v != null ? v.kernelName() : String.format("ioctl 0x%08X", code & 0xFFFF_FFFFL);
    }
}
