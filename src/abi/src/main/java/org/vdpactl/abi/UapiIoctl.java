package org.vdpactl.abi;

import java.util.HashMap;
import java.util.Map;

import org.vdpactl.ffi.gen.vhost.vhost_h;

/**
 * Every vhost ioctl of linux/vhost.h, by its macro name, with the request number jextract evaluated
 * from the uapi headers (docs/spec/kernel-abi.md §2). The fake kernel's ioctl dispatch switches on
 * these constants, as the kernel's {@code switch (cmd)} keys on the macros: a misspelt case does not
 * compile, and {@link KernelProfile} lists what each kernel release handles by the same names.
 * {@code UapiEnumsTest} checks that this list is exactly the set of vhost ioctls in the bindings.
 * An ioctl that only works on a device with a capability names, as its second argument, the backend
 * feature bit that advertises it ({@link #gate()}): the one place that fact is declared.
 */
public enum UapiIoctl {
    VHOST_ATTACH_VRING_WORKER(vhost_h.VHOST_ATTACH_VRING_WORKER()),
    VHOST_FREE_WORKER(vhost_h.VHOST_FREE_WORKER()),
    VHOST_GET_BACKEND_FEATURES(vhost_h.VHOST_GET_BACKEND_FEATURES()),
    VHOST_GET_FEATURES(vhost_h.VHOST_GET_FEATURES()),
    VHOST_GET_FEATURES_ARRAY(vhost_h.VHOST_GET_FEATURES_ARRAY()),
    VHOST_GET_FORK_FROM_OWNER(vhost_h.VHOST_GET_FORK_FROM_OWNER()),
    VHOST_GET_VRING_BASE(vhost_h.VHOST_GET_VRING_BASE()),
    VHOST_GET_VRING_BUSYLOOP_TIMEOUT(vhost_h.VHOST_GET_VRING_BUSYLOOP_TIMEOUT()),
    VHOST_GET_VRING_ENDIAN(vhost_h.VHOST_GET_VRING_ENDIAN()),
    VHOST_GET_VRING_WORKER(vhost_h.VHOST_GET_VRING_WORKER()),
    VHOST_NEW_WORKER(vhost_h.VHOST_NEW_WORKER()),
    VHOST_RESET_OWNER(vhost_h.VHOST_RESET_OWNER()),
    VHOST_SET_BACKEND_FEATURES(vhost_h.VHOST_SET_BACKEND_FEATURES()),
    VHOST_SET_FEATURES(vhost_h.VHOST_SET_FEATURES()),
    VHOST_SET_FEATURES_ARRAY(vhost_h.VHOST_SET_FEATURES_ARRAY()),
    VHOST_SET_FORK_FROM_OWNER(vhost_h.VHOST_SET_FORK_FROM_OWNER()),
    VHOST_SET_LOG_BASE(vhost_h.VHOST_SET_LOG_BASE()),
    VHOST_SET_LOG_FD(vhost_h.VHOST_SET_LOG_FD()),
    VHOST_SET_MEM_TABLE(vhost_h.VHOST_SET_MEM_TABLE()),
    VHOST_SET_OWNER(vhost_h.VHOST_SET_OWNER()),
    VHOST_SET_VRING_ADDR(vhost_h.VHOST_SET_VRING_ADDR()),
    VHOST_SET_VRING_BASE(vhost_h.VHOST_SET_VRING_BASE()),
    VHOST_SET_VRING_BUSYLOOP_TIMEOUT(vhost_h.VHOST_SET_VRING_BUSYLOOP_TIMEOUT()),
    VHOST_SET_VRING_CALL(vhost_h.VHOST_SET_VRING_CALL()),
    VHOST_SET_VRING_ENDIAN(vhost_h.VHOST_SET_VRING_ENDIAN()),
    VHOST_SET_VRING_ERR(vhost_h.VHOST_SET_VRING_ERR()),
    VHOST_SET_VRING_KICK(vhost_h.VHOST_SET_VRING_KICK()),
    VHOST_SET_VRING_NUM(vhost_h.VHOST_SET_VRING_NUM()),
    VHOST_VDPA_GET_AS_NUM(vhost_h.VHOST_VDPA_GET_AS_NUM()),
    VHOST_VDPA_GET_CONFIG(vhost_h.VHOST_VDPA_GET_CONFIG()),
    VHOST_VDPA_GET_CONFIG_SIZE(vhost_h.VHOST_VDPA_GET_CONFIG_SIZE()),
    VHOST_VDPA_GET_DEVICE_ID(vhost_h.VHOST_VDPA_GET_DEVICE_ID()),
    VHOST_VDPA_GET_GROUP_NUM(vhost_h.VHOST_VDPA_GET_GROUP_NUM()),
    VHOST_VDPA_GET_IOVA_RANGE(vhost_h.VHOST_VDPA_GET_IOVA_RANGE()),
    VHOST_VDPA_GET_STATUS(vhost_h.VHOST_VDPA_GET_STATUS()),
    VHOST_VDPA_GET_VQS_COUNT(vhost_h.VHOST_VDPA_GET_VQS_COUNT()),
    VHOST_VDPA_GET_VRING_DESC_GROUP(vhost_h.VHOST_VDPA_GET_VRING_DESC_GROUP(), UapiBackendFeature.VHOST_BACKEND_F_DESC_ASID),
    VHOST_VDPA_GET_VRING_GROUP(vhost_h.VHOST_VDPA_GET_VRING_GROUP()),
    VHOST_VDPA_GET_VRING_NUM(vhost_h.VHOST_VDPA_GET_VRING_NUM()),
    VHOST_VDPA_GET_VRING_SIZE(vhost_h.VHOST_VDPA_GET_VRING_SIZE()),
    VHOST_VDPA_RESUME(vhost_h.VHOST_VDPA_RESUME(), UapiBackendFeature.VHOST_BACKEND_F_RESUME),
    VHOST_VDPA_SET_CONFIG(vhost_h.VHOST_VDPA_SET_CONFIG()),
    VHOST_VDPA_SET_CONFIG_CALL(vhost_h.VHOST_VDPA_SET_CONFIG_CALL()),
    VHOST_VDPA_SET_GROUP_ASID(vhost_h.VHOST_VDPA_SET_GROUP_ASID()),
    VHOST_VDPA_SET_STATUS(vhost_h.VHOST_VDPA_SET_STATUS()),
    VHOST_VDPA_SET_VRING_ENABLE(vhost_h.VHOST_VDPA_SET_VRING_ENABLE()),
    VHOST_VDPA_SUSPEND(vhost_h.VHOST_VDPA_SUSPEND(), UapiBackendFeature.VHOST_BACKEND_F_SUSPEND);

    private static final RequestTable<UapiIoctl> BY_REQUEST;

    static {
        Map<Long, UapiIoctl> m = new HashMap<>();
        for (UapiIoctl io : values()) {
            m.put(io.request, io);
        }
        BY_REQUEST = RequestTable.of(m);
    }

    private final long request;
    private final UapiBackendFeature gate;

    UapiIoctl(long request) {
        this(request, null);
    }

    UapiIoctl(long request, UapiBackendFeature gate) {
        this.request = request & 0xFFFF_FFFFL;
        this.gate = gate;
    }

    /** The 32-bit request number ({@code _IOC(dir, 0xAF, nr, size)}). */
    public long request() {
        return request;
    }

    /**
     * The backend feature bit without which vhost-vdpa answers this ioctl with EOPNOTSUPP, or null. The
     * kernel offers the bit exactly when the device has the op the ioctl calls and the ioctl checks that op
     * (drivers/vhost/vdpa.c: {@code vhost_vdpa_suspend}/{@code _resume} test {@code ops->suspend}/{@code
     * ->resume}, which {@code vhost_vdpa_can_suspend}/{@code _can_resume} also report as
     * VHOST_BACKEND_F_SUSPEND/RESUME; GET_VRING_DESC_GROUP tests {@code vhost_vdpa_has_desc_group}, reported as
     * VHOST_BACKEND_F_DESC_ASID): acking the bit is not needed (docs/spec/kernel-abi.md §3.4, §3.5).
     */
    public UapiBackendFeature gate() {
        return gate;
    }

    /**
     * How the syscall seam names a request in its errors: "ioctl VHOST_VDPA_SUSPEND" for a vhost ioctl,
     * "ioctl 0x0000AF7D" for any other number (only its low 32 bits count).
     */
    public static String operation(long request) {
        UapiIoctl io = forRequest(request);
        return io != null ? "ioctl " + io.name() : String.format("ioctl 0x%08X", request & 0xFFFF_FFFFL);
    }

    /** The ioctl whose request number this is (only its low 32 bits count, as in the kernel), or null. */
    public static UapiIoctl forRequest(long request) {
        return BY_REQUEST.get(request & 0xFFFF_FFFFL);
    }
}
