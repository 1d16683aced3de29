package org.vdpactl.abi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.vdpactl.ffi.gen.vhost.vhost_h;

/**
 * Each vdpa attribute's wire type and request policy, held once by {@link UapiVdpaAttribute}, against the table of
 * docs/spec/kernel-abi.md §7.3 (read from drivers/vdpa/vdpa.c's vdpa_nl_policy and its nla_put calls): the table is
 * the oracle, as §2's is for the ioctl numbers, so the code keeps no second copy of it.
 */
class UapiVdpaAttributeSpecTest {
    private static final Path SPEC = Path.of("docs/spec/kernel-abi.md");
    private static final Pattern ROW = Pattern.compile("^\\| (\\d+) \\| ([A-Z_]+) \\| ([^|]+) \\| ([^|]+) \\|$", Pattern.MULTILINE);
    private static final Pattern BLOCK_ROW = Pattern.compile("^\\| 21–36 \\| ([^|]+) \\| reply only \\|$", Pattern.MULTILINE);
    private static final Pattern WIDTH = Pattern.compile("\\b(u8|u16|u32|u64)\\b");

    @Test
    void everyAttributesTypeAndPolicyIsTheSpecTables() throws IOException {
        String spec = section73(Files.readString(SPEC));
        Map<String, String> expected = new TreeMap<>();
        Matcher m = ROW.matcher(spec);
        while (m.find()) {
            if (!m.group(2).startsWith("VDPA_ATTR_")) {
                expected.put("VDPA_ATTR_" + m.group(2), type(m.group(3)) + " / " + policy(m.group(4)));
            }
        }
        Matcher blk = BLOCK_ROW.matcher(spec);
        assertTrue(blk.find(), "the row of the block attributes 21–36");
        for (String pair : blk.group(1).split(",\\s*")) {
            String[] w = pair.trim().split("\\s+");
            expected.put(blockName(w[0]), w[1].toUpperCase(Locale.ROOT) + " / reply only");
        }
        Map<String, String> actual = new TreeMap<>();
        for (UapiVdpaAttribute a : UapiVdpaAttribute.values()) {
            actual.put(a.name(), a.type() + " / " + (a.requestPolicy() == null ? "reply only" : a.requestPolicy()));
        }
        assertEquals(expected, actual);
    }

    @Test
    void aPutOfAnotherWidthOrAValueThatDoesNotFitIsRefusedNamingTheAttribute() {
        UapiVdpaAttribute mtu = UapiVdpaAttribute.VDPA_ATTR_DEV_NET_CFG_MTU;
        IllegalArgumentException width = assertThrows(IllegalArgumentException.class, () -> mtu.checkPut(NlaType.U32, 1500));
        assertEquals("VDPA_ATTR_DEV_NET_CFG_MTU is a u16 attribute, not a u32", width.getMessage());
        IllegalArgumentException value = assertThrows(IllegalArgumentException.class, () -> mtu.checkPut(NlaType.U16, 70_000));
        assertEquals("VDPA_ATTR_DEV_NET_CFG_MTU (u16) cannot hold 70000", value.getMessage());
        assertThrows(IllegalArgumentException.class, () -> UapiVdpaAttribute.VDPA_ATTR_DEV_NET_CFG_MACADDR.checkBytes(5));
        assertThrows(IllegalArgumentException.class, UapiVdpaAttribute.VDPA_ATTR_DEV_ID::checkString);
        mtu.checkPut(NlaType.U16, 65_535);
        assertEquals(6, UapiVdpaAttribute.VDPA_ATTR_DEV_NET_CFG_MACADDR.minLength(), "NLA_POLICY_ETH_ADDR");
    }

    /** The row abbreviates after its first name: "SIZE_MAX" is DEV_BLK_CFG_SIZE_MAX, "BLK_FLUSH" DEV_BLK_FLUSH (as the bindings name them). */
    private static String blockName(String abbreviated) {
        for (String candidate : List.of(abbreviated, "DEV_BLK_CFG_" + abbreviated, "DEV_" + abbreviated)) {
            try {
                vhost_h.class.getMethod("VDPA_ATTR_" + candidate);
                return "VDPA_ATTR_" + candidate;
            } catch (NoSuchMethodException notThisOne) {
                // the next reading
            }
        }
        throw new AssertionError("no VDPA_ATTR_ constant for " + abbreviated);
    }

    private static String section73(String md) {
        int from = md.indexOf("### 7.3 Attributes");
        return md.substring(from, md.indexOf("\n### ", from + 1));
    }

    /** "u16", "**u16 on the wire** (uapi comment says u8)", "NUL-terminated string", "6 bytes". */
    private static String type(String cell) {
        String c = cell.trim();
        if (c.startsWith("NUL-terminated")) {
            return "NUL_STRING";
        }
        if (c.startsWith("string")) {
            return "STRING";
        }
        if (c.matches("\\d+ bytes")) {
            return "BINARY";
        }
        Matcher w = WIDTH.matcher(c);
        assertTrue(w.find(), "a width in " + c);
        return w.group(1).toUpperCase(Locale.ROOT);
    }

    /** "reply only", "NLA_NUL_STRING (…)", "exact length 6 (…)", "NLA_U16, value ≥ 68 (…)". */
    private static String policy(String cell) {
        String c = cell.trim();
        if (c.equals("reply only")) {
            return c;
        }
        Matcher exact = Pattern.compile("^exact length (\\d+)").matcher(c);
        if (exact.find()) {
            return NlaPolicy.exactLength(Integer.parseInt(exact.group(1))).toString();
        }
        Matcher nla = Pattern.compile("^NLA_([A-Z0-9_]+)(?:, value ≥ (\\d+))?").matcher(c);
        assertTrue(nla.find(), "a policy in " + c);
        NlaType t = NlaType.valueOf(nla.group(1));
        return (nla.group(2) != null ? NlaPolicy.min(t, Long.parseLong(nla.group(2))) : NlaPolicy.of(t)).toString();
    }
}
