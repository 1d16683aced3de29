package org.vdpactl.cli.rehearse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
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

    /**
     * Issue 36 item 6: the plan.memory a rehearsal prints (snake_case, integers) is read back as a layout, the
     * camelCase of earlier releases still reads, and both spellings of one key are refused.
     */
    @Test
    void thePlanMemoryOfARehearsalDocumentFeedsBackAsALayout() throws Exception {
        JsonNode doc = new ObjectMapper().readTree(
                Path.of( // tests run in the repository's root
                        "ansible/ansible_collections/vdpactl/vdpa/tests/unit/plugins/modules/fixtures/rehearsal.json").toFile());
        JsonNode memory = doc.at("/plan/memory");
        assertTrue(memory.size() >= 1 && memory.get(0).has("page_size"), "a real plan.memory: " + memory);
        GuestMemoryLayout l = MemoryLayoutFile.parse(memory.toString(), "plan.json");
        assertEquals(memory.size(), l.regions().size());
        for (int i = 0; i < memory.size(); i++) {
            GuestMemoryLayout.Region r = l.regions().get(i);
            assertEquals(memory.get(i).get("iova").asLong(), r.iova());
            assertEquals(memory.get(i).get("size").asLong(), r.size());
            assertEquals(memory.get(i).get("page_size").asLong(), r.pageSize());
        }
        assertEquals(doc.at("/plan/memory_bytes").asLong(), l.totalBytes());
        GuestMemoryLayout snake = MemoryLayoutFile.parse("{\"page_size\": \"2M\", \"regions\": [{\"iova\": 0, \"size\": \"2G\"}]}", "s");
        assertEquals(2L << 20, snake.regions().get(0).pageSize());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> MemoryLayoutFile.parse(
                "{\"regions\": [{\"iova\": 0, \"size\": \"2G\", \"pageSize\": \"4K\", \"page_size\": \"2M\"}]}", "f.json"));
        assertTrue(e.getMessage().contains("f.json region #1: both \"pageSize\" and \"page_size\""), e.getMessage());
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
