package org.vdpactl.fake.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.lang.reflect.Constructor;
import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The inventory's records write out their equals and hashCode (Inventory says why): each must still be a record's,
 * every component taking part. A shared fake saves only when its inventory no longer equals the one it loaded, so a
 * component left out of equals would lose that change.
 */
class InventoryEqualityTest {

    @ParameterizedTest
    @ValueSource(classes = {Inventory.class, Inventory.Mgmt.class, Inventory.Function.class, Inventory.Device.class})
    void everyComponentTakesPart(Class<? extends Record> type) throws Exception {
        RecordComponent[] components = type.getRecordComponents();
        Constructor<? extends Record> canonical = type.getDeclaredConstructor(
                Arrays.stream(components).map(RecordComponent::getType).toArray(Class<?>[]::new));
        Object[] values = Arrays.stream(components).map(c -> sample(c.getType(), 0)).toArray();
        Record one = canonical.newInstance(values);
        Record same = canonical.newInstance(values.clone());
        assertEquals(one, same);
        assertEquals(one.hashCode(), same.hashCode(), "equal records, different hash codes");
        assertNotEquals(one, null);
        assertNotEquals(one, "a string");
        for (int i = 0; i < components.length; i++) {
            Object[] changed = values.clone();
            changed[i] = sample(components[i].getType(), 1);
            Record other = canonical.newInstance(changed);
            assertNotEquals(one, other, type.getSimpleName() + "." + components[i].getName() + " left out of equals");
            assertNotEquals(one.hashCode(), other.hashCode(), type.getSimpleName() + "." + components[i].getName()
                    + " left out of hashCode");
            changed[i] = null;
            if (!components[i].getType().equals(List.class)) {
                assertNotEquals(one, canonical.newInstance(changed), components[i].getName() + " null equals a value");
            }
        }
    }

    /** A value of {@code type}, one of two that differ ({@code which} 0 or 1). */
    private static Object sample(Class<?> type, int which) {
        if (type == String.class) {
            return which == 0 ? "02:00:00:00:00:01" : "02:00:00:00:00:02";
        }
        if (type == Integer.class) {
            return which == 0 ? 1500 : 9000;
        }
        if (type == Inventory.Function.class) {
            return new Inventory.Function(which == 0 ? "02:00:00:00:00:07" : null, 9000, null);
        }
        if (type == List.class) {
            // Inventory's lists: its management devices and devices (Inventory copies them, so any element type compiles)
            return which == 0 ? List.of() : List.of(new Inventory.Mgmt("vdpasim_net", null, null, null));
        }
        throw new AssertionError("no sample of " + type);
    }
}
