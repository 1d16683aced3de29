package org.vdpactl.abi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The boxing-free request table answers exactly what the map it was built from answers. */
class RequestTableTest {

    @Test
    void everyVhostIoctlOfTheBindingsIsFoundAndNothingElse() {
        Map<Long, String> all = new HashMap<>();
        for (UapiIoctl io : UapiIoctl.values()) {
            all.put(io.request(), io.name());
        }
        RequestTable<String> t = RequestTable.of(all);
        all.forEach((request, name) -> assertEquals(name, t.get(request), name));
        for (long request : all.keySet()) {
            long other = request ^ 0x0001_0000L; // another size field: not an ioctl of the headers
            assertEquals(all.get(other), t.get(other));
        }
        assertNull(t.get(0));
    }

    @Test
    void aFullSmallTableFindsEveryKeyPastTheCollisions() {
        // 64 keys in 256 slots collide; each must still be found, and an absent key must end its probe
        Map<Long, String> m = new HashMap<>();
        for (long k = 1; k <= 64; k++) {
            m.put(k * 0x100, "k" + k);
        }
        RequestTable<String> t = RequestTable.of(m);
        m.forEach((k, v) -> assertEquals(v, t.get(k)));
        assertNull(t.get(65 * 0x100));
    }
}
