package org.vdpactl.mgmt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.vdpactl.sys.VdpaDeviceRules;

/**
 * Names the kernel accepts (any bytes) but that print like another name: "vdpa\u200b0" (zero-width space),
 * "\u202evdpa0" (right-to-left override), "cafe\u0301" (the NFD twin of "caf\u00e9") were listed exactly like
 * vdpa0 and café. The text output shows them apart, the JSON keeps their characters.
 */
class ShownNamesTest {
    private static final List<String> LOOK_ALIKES = List.of("vdpa0", "vdpa\u200b0", "\u202evdpa0", "vdpa\u20600", "vdpa0\u200d",
            "caf\u00e9", "cafe\u0301", "\u212b", "\u00c5", "tag\udb40\udc01", "a\\u200b", "a\\\u200b", "a\\\\u200b", "a\\b", "a\\");

    private static VdpaDevInfo dev(String name) {
        return new VdpaDevInfo(name, null, "vdpasim_net", 1, 0, 3, 256, null);
    }

    @Test
    void everyLookAlikeListsAsADifferentLineWithNothingInvisible() {
        String text = IprouteText.devs(LOOK_ALIKES.stream().map(ShownNamesTest::dev).toList());
        List<String> shown = text.lines().map(l -> l.substring(0, l.indexOf(": type "))).toList();
        assertEquals(LOOK_ALIKES.size(), new HashSet<>(shown).size(), "two names listed alike: " + shown);
        assertTrue(text.replace("\n", "").codePoints().noneMatch(VdpaDeviceRules::invisible), "an invisible character printed: " + text);
        assertTrue(text.startsWith("vdpa0: type net"), "a usual name prints as it is: " + text);
        assertTrue(text.contains("\nvdpa\\u200b0: type net"), text);
        assertTrue(text.contains("\n\\u202evdpa0: type net"), text);
        assertTrue(text.contains("\ncaf\u00e9: type net"), "the composed form prints as it is: " + text);
        assertTrue(text.contains("\ncafe\\u0301: type net"), "its decomposed twin shows its combining accent: " + text);
        assertTrue(text.contains("\na\\b: type net"), "a backslash no escape can be read into stays single: " + text);
    }

    @Test
    void theShownFormIsOneToOne() {
        Set<String> seen = new HashSet<>();
        for (String n : LOOK_ALIKES) {
            assertTrue(seen.add(ShownNames.text(n)), "\"" + ShownNames.text(n) + "\" shown for two names");
        }
    }

    @Test
    void theJsonKeepsTheCharacters() {
        String json = IprouteJson.devs(List.of(dev("vdpa\u200b0"), dev("cafe\u0301"))).toString();
        assertTrue(json.contains("\"vdpa\u200b0\"") && json.contains("\"cafe\u0301\""), json);
    }

    @Test
    void nfcAndNfdTwinsAreWarnedAboutOnce() {
        List<String> w = ShownNames.twinWarnings(List.of("caf\u00e9", "vdpa0", "cafe\u0301", "vdpa\u200b0"));
        assertEquals(1, w.size(), w.toString());
        assertTrue(w.getFirst().startsWith("devices \"caf\u00e9\" and \"cafe\\u0301\" are different names that look alike"), w.getFirst());
        assertEquals(List.of(), ShownNames.twinWarnings(List.of("vdpa0", "vdpa1", "mlx5-0")));
    }
}
