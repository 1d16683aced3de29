package org.vdpactl.abi;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.vdpactl.ffi.gen.vhost.vhost_h;

/**
 * The macro names of the request numbers the fake kernel dispatches on, read from the generated
 * bindings of the 6.12 uapi headers (docs/spec/kernel-abi.md §2 and §6) as the kernel takes them
 * from its headers: no number is typed here and nothing is borrowed from the client's tables.
 *
 * <ul>
 *   <li>vhost ioctls: every {@code VHOST_*} constant whose {@code _IOC_TYPE} is the vhost magic
 *       {@code VHOST_VIRTIO} (linux/vhost.h: {@code _IOW(VHOST_VIRTIO, ...)}); the other VHOST_*
 *       constants (feature bits, IOTLB message types, VHOST_FILE_UNBIND) are small numbers whose
 *       type byte is not the magic;</li>
 *   <li>vdpa netlink commands: the {@code VDPA_CMD_*} enumerators of linux/vdpa.h.</li>
 * </ul>
 * Names are used for the kernel profiles (which list what a version handles), fault-injection
 * call names and error texts; the numbers themselves come from {@link vhost_h}.
 */
public final class UapiNames {
    /** _IOC_TYPESHIFT / _IOC_TYPEBITS of include/uapi/asm-generic/ioctl.h. */
    private static final int IOC_TYPE_SHIFT = 8;
    private static final int IOC_TYPE_MASK = 0xFF;

    private static final Map<Long, String> IOCTLS = new HashMap<>();
    private static final Map<Integer, String> VDPA_COMMANDS = new HashMap<>();
    private static final Map<String, Integer> VDPA_ATTRIBUTES = new HashMap<>();

    static {
        for (Method m : vhost_h.class.getMethods()) {
            if (!Modifier.isStatic(m.getModifiers()) || m.getParameterCount() != 0) {
                continue;
            }
            String name = m.getName();
            if (name.startsWith("VHOST_") && (m.getReturnType() == long.class || m.getReturnType() == int.class)) {
                long request = constant(m) & 0xFFFF_FFFFL;
                if (((request >>> IOC_TYPE_SHIFT) & IOC_TYPE_MASK) == vhost_h.VHOST_VIRTIO()) {
                    IOCTLS.put(request, name);
                }
            } else if (name.startsWith("VDPA_CMD_") && m.getReturnType() == int.class) {
                VDPA_COMMANDS.put((int) constant(m), name);
            } else if (name.startsWith("VDPA_ATTR_") && m.getReturnType() == int.class) {
                VDPA_ATTRIBUTES.put(name, (int) constant(m));
            }
        }
    }

    /** {@link #IOCTLS} for the per-call lookup (no boxing). */
    private static final RequestTable<String> IOCTL_TABLE = RequestTable.of(IOCTLS);

    private UapiNames() {
    }

    private static long constant(Method m) {
        try {
            return ((Number) m.invoke(null)).longValue();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot read " + m.getName() + " from the generated bindings", e);
        }
    }

    /** "VHOST_VDPA_SUSPEND" for a vhost ioctl request number (32 bits used), or null. */
    public static String ioctl(long request) {
        return IOCTL_TABLE.get(request & 0xFFFF_FFFFL);
    }

    /** Request number → macro name of every vhost ioctl of the bindings. */
    public static Map<Long, String> ioctlsByRequest() {
        return Collections.unmodifiableMap(IOCTLS);
    }

    /** Every vhost ioctl name of the bindings, sorted. */
    public static Set<String> ioctls() {
        return Collections.unmodifiableSet(new TreeSet<>(IOCTLS.values()));
    }

    /** "VDPA_CMD_DEV_NEW" for a vdpa genl command number, or null. */
    public static String vdpaCommand(int cmd) {
        return VDPA_COMMANDS.get(cmd);
    }

    /** Every VDPA_CMD_* name of the bindings, sorted. */
    public static Set<String> vdpaCommands() {
        return Collections.unmodifiableSet(new TreeSet<>(VDPA_COMMANDS.values()));
    }

    /** The number of a VDPA_ATTR_* enumerator of the bindings, or -1 when the headers have none. */
    public static int vdpaAttribute(String name) {
        return VDPA_ATTRIBUTES.getOrDefault(name, -1);
    }
}
