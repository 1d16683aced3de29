package org.vdpactl.cli.rehearse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.vdpactl.orchestra.GuestMemoryLayout;

class MemoryLayoutFileTest {
    private static final long GIB = 1L << 30;

    @Test
    void regionsWithHolesSplitsAndPageSizes() {
        GuestMemoryLayout l = MemoryLayoutFile.parse("""
                { "pageSize": "4K",
                  "regions": [ { "iova": "0", "size": "2G" },
                               { "iova": "0x100000000", "size": "6G", "split": "4G", "pageSize": "2M" } ] }
                """, "test");
        assertEquals(3, l.regions().size());
        assertEquals(8 * GIB, l.totalBytes());
        assertEquals(1, l.holes());
        assertEquals(4096, l.regions().get(0).pageSize());
        assertEquals(4 * GIB, l.regions().get(1).iova());
        assertEquals(4 * GIB, l.regions().get(1).size());
        assertEquals(2 * GIB, l.regions().get(2).size());
        assertEquals(2L << 20, l.regions().get(2).pageSize());
    }

    @Test
    void errorsNameTheRegionAndTheField() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> MemoryLayoutFile.parse("{\"regions\":[{\"iova\":\"0\",\"size\":\"1G\",\"colour\":1}]}", "f.json"));
        assertTrue(e.getMessage().contains("f.json region #1") && e.getMessage().contains("colour"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> MemoryLayoutFile.parse("{\"regions\":[{\"iova\":\"0\",\"size\":\"2G\"},{\"iova\":\"1G\",\"size\":\"1G\"}]}", "f.json"));
        assertTrue(e.getMessage().contains("overlap"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> MemoryLayoutFile.parse("[]", "f.json"));
        assertThrows(IllegalArgumentException.class, () -> MemoryLayoutFile.parse("{\"regions\":[{\"size\":\"1G\"}]}", "f.json"));
    }
}
