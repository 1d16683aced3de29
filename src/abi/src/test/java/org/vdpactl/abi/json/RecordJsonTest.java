package org.vdpactl.abi.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The reader of vdpactl's own data files binds records as Jackson did (a key left out is null, 0 or false; compact
 * constructors run) and refuses what the state file's Jackson reader was configured to refuse, with the member, line
 * and column: a key given twice, text after the document, a fraction or a string for an integer, a key the record
 * has not, invalid UTF-8.
 */
class RecordJsonTest {
    enum Kind { NET, BLK }

    record Inner(int n, Long big, String s, boolean flag) {
    }

    record Outer(String name, Kind kind, List<Inner> inners, Map<String, Map<String, Long>> counts, Integer optional,
                 List<List<String>> nested, double ratio) {
        Outer {
            if ("bad".equals(name)) {
                throw new IllegalArgumentException("a bad name");
            }
        }
    }

    private static <T> T read(String json, Class<T> type) {
        return RecordJson.read(json.getBytes(StandardCharsets.UTF_8), type);
    }

    private static JsonReadException refused(String json) {
        return assertThrows(JsonReadException.class, () -> read(json, Outer.class));
    }

    @Test
    void recordsListsMapsEnumsAndScalarsAreBound() {
        Outer o = read("""
                {"name": "a\\u00e9\\n", "kind": "BLK", "inners": [{"n": -7, "big": 9007199254740993, "s": null, "flag": true}],
                 "counts": {"vdpa0": {"rx": 1, "tx": 2}}, "nested": [["x"], []], "ratio": 0.5}
                """, Outer.class);
        assertEquals("a\u00e9\n", o.name());
        assertEquals(Kind.BLK, o.kind());
        assertEquals(List.of(new Inner(-7, 9007199254740993L, null, true)), o.inners());
        assertEquals(Map.of("vdpa0", Map.of("rx", 1L, "tx", 2L)), o.counts());
        assertEquals(List.of(List.of("x"), List.of()), o.nested());
        assertNull(o.optional(), "a key left out is null");
        assertEquals(0.5, o.ratio());
        assertEquals(new Inner(0, null, null, false), read("{}", Inner.class), "left-out primitives are 0 and false");
        assertNull(read(" null ", Outer.class));
    }

    @Test
    void aKeyGivenTwiceIsRefusedWhereItIs() {
        JsonReadException e = refused("{\"name\": \"a\",\n \"inners\": [{\"n\": 1,\n \"n\": 2}]}");
        assertEquals("Duplicate field 'n'", e.problem());
        assertEquals("inners[0].n", e.path());
        assertEquals(3, e.line());
        assertEquals(2, e.column());
        assertEquals("Duplicate field 'x'", assertThrows(JsonReadException.class,
                () -> read("{\"counts\": {\"a\": {\"x\": 1, \"x\": 2}}}", Outer.class)).problem(), "maps too");
    }

    @Test
    void textAfterTheDocumentIsRefused() {
        JsonReadException e = refused("{}\n{}");
        assertTrue(e.problem().startsWith("Trailing token"), e.getMessage());
        assertEquals(2, e.line());
    }

    @Test
    void integersAreIntegers() {
        assertEquals("inners[0].n", refused("{\"inners\": [{\"n\": 0.7}]}").path());
        assertTrue(refused("{\"inners\": [{\"n\": 1e3}]}").problem().contains("1e3"));
        assertEquals("inners[0].n", refused("{\"inners\": [{\"n\": \"1\"}]}").path(), "a string is no number");
        assertTrue(refused("{\"inners\": [{\"n\": 2147483648}]}").problem().contains("out of range"));
        assertEquals("name", refused("{\"name\": 1}").path(), "a number is no string");
        assertEquals("inners[0].flag", refused("{\"inners\": [{\"flag\": 1}]}").path());
        assertTrue(refused("{\"optional\": 01}").problem().startsWith("Malformed number"), "JSON has no leading zeros");
    }

    @Test
    void unknownKeysNamesAndBrokenTextAreRefused() {
        assertTrue(refused("{\"nme\": \"a\"}").problem().startsWith("Unrecognized field \"nme\""));
        assertEquals("kind", refused("{\"kind\": \"net\"}").path(), "enum names as declared");
        assertEquals("name", refused("{\"name\": \"a\tb\"}").path(), "a raw control character in a string");
        refused("{\"name\": \"a\"");
        refused("{\"name\": \"a\",}");
        refused("[]");
        assertThrows(JsonReadException.class,
                () -> RecordJson.read(new byte[] {'{', '"', (byte) 0xff, '"', ':', '1', '}'}, Outer.class), "invalid UTF-8");
    }

    @Test
    void aCompactConstructorsRefusalIsTheDocumentsProblem() {
        JsonReadException e = refused("{\"inners\": [],\n \"name\": \"bad\"}");
        assertTrue(e.problem().contains("a bad name"), e.getMessage());
        assertEquals(IllegalArgumentException.class, e.getCause().getClass());
    }

    @Test
    void aTreeIsPlainValuesAndBindsAsItsText() {
        Object tree = RecordJson.tree("{\"name\": \"x\", \"inners\": [{\"n\": 3, \"big\": 18446744073709551616}], \"ratio\": 1.5e0}"
                .getBytes(StandardCharsets.UTF_8));
        assertEquals(Map.of("name", "x", "inners", List.of(Map.of("n", 3L, "big", new java.math.BigInteger("18446744073709551616"))),
                "ratio", 1.5), tree);
        @SuppressWarnings("unchecked")
        Map<String, Object> inner = (Map<String, Object>) ((List<?>) ((Map<?, ?>) tree).get("inners")).get(0);
        inner.remove("big");
        assertEquals(new Outer("x", null, List.of(new Inner(3, null, null, false)), null, null, null, 1.5), RecordJson.bind(tree, Outer.class));
    }
}
