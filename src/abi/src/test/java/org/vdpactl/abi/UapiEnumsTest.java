package org.vdpactl.abi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.vdpactl.ffi.gen.vhost.vhost_h;

/**
 * The ABI's enums are exactly the kernel's enumerations in the generated bindings, each number the one
 * jextract evaluated: a header update that adds an ioctl, a backend bit or a vdpa command fails here until
 * the enum has it. (The scan of the bindings is the oracle; no production code reads them reflectively.)
 */
class UapiEnumsTest {
    /** _IOC_TYPE of a request: the vhost ioctls are those of type VHOST_VIRTIO (the other VHOST_* are small numbers). */
    private static boolean vhostIoctl(Method m) {
        return ((constant(m) >>> 8) & 0xFF) == vhost_h.VHOST_VIRTIO();
    }

    @Test
    void uapiIoctlIsEveryVhostIoctlOfTheBindings() {
        assertEquals(constants("VHOST_", UapiEnumsTest::vhostIoctl), names(UapiIoctl.values()));
        for (UapiIoctl io : UapiIoctl.values()) {
            assertEquals(constant(method(io.name())) & 0xFFFF_FFFFL, io.request(), io.name());
            assertEquals(io, UapiIoctl.forRequest(io.request()));
        }
        assertNull(UapiIoctl.forRequest(0xAFEEL));
    }

    @Test
    void uapiBackendFeatureIsEveryBackendBitOfTheBindings() {
        assertEquals(constants("VHOST_BACKEND_F_", m -> true), names(UapiBackendFeature.values()));
        for (UapiBackendFeature f : UapiBackendFeature.values()) {
            assertEquals(constant(method(f.name())), f.bit(), f.name());
            assertEquals(1L << f.bit(), f.mask());
            assertEquals(f, UapiBackendFeature.forBit(f.bit()));
        }
        assertNull(UapiBackendFeature.forBit(63));
    }

    @Test
    void uapiVdpaCommandIsEveryVdpaCommandOfTheBindingsButUnspec() {
        assertEquals(constants("VDPA_CMD_", m -> !m.getName().equals("VDPA_CMD_UNSPEC")), names(UapiVdpaCommand.values()));
        for (UapiVdpaCommand c : UapiVdpaCommand.values()) {
            assertEquals(constant(method(c.name())), c.number(), c.name());
            assertEquals(c, UapiVdpaCommand.forNumber(c.number()));
        }
        assertNull(UapiVdpaCommand.forNumber(vhost_h.VDPA_CMD_UNSPEC()));
    }

    @Test
    void uapiVdpaAttributeIsEveryVdpaAttributeOfTheBindingsButUnspecPadAndMax() {
        Set<String> notAttributes = Set.of("VDPA_ATTR_UNSPEC", "VDPA_ATTR_PAD", "VDPA_ATTR_MAX");
        assertEquals(constants("VDPA_ATTR_", m -> !notAttributes.contains(m.getName())), names(UapiVdpaAttribute.values()));
        for (UapiVdpaAttribute a : UapiVdpaAttribute.values()) {
            assertEquals(constant(method(a.name())), a.number(), a.name());
            assertEquals(a, UapiVdpaAttribute.forNumber(a.number()));
        }
        assertNull(UapiVdpaAttribute.forNumber(vhost_h.VDPA_ATTR_UNSPEC()));
        assertEquals(vhost_h.VDPA_ATTR_MAX(), UapiVdpaAttribute.MAX);
    }

    private static Set<String> names(Enum<?>[] values) {
        return Arrays.stream(values).map(Enum::name).collect(Collectors.toCollection(TreeSet::new));
    }

    private static Set<String> constants(String prefix, Predicate<Method> keep) {
        return Arrays.stream(vhost_h.class.getMethods())
                .filter(m -> Modifier.isStatic(m.getModifiers()) && m.getParameterCount() == 0)
                .filter(m -> m.getReturnType() == long.class || m.getReturnType() == int.class)
                .filter(m -> m.getName().startsWith(prefix) && keep.test(m))
                .map(Method::getName)
                .collect(Collectors.toCollection(TreeSet::new));
    }

    private static Method method(String name) {
        try {
            return vhost_h.class.getMethod(name);
        } catch (NoSuchMethodException e) {
            throw new AssertionError(name + " is not in the bindings", e);
        }
    }

    private static long constant(Method m) {
        try {
            return ((Number) m.invoke(null)).longValue();
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(m.getName(), e);
        }
    }
}
