package org.vdpactl.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * iproute2's vdpa command forms (vdpa/vdpa.c: prefix matching with matches(), keyword arguments) run as
 * vdpactl's own, and vdpactl's own forms keep their meaning where the two could clash.
 */
class IprouteFormsTest {
    @TempDir
    Path dir;

    private CliRun fake(String... args) {
        return CliRun.onVirtualFake(dir.resolve("state.json"), args);
    }

    /** vdpa-dev(8)'s example: it failed with "Missing required option: '--mgmtdev=BUS/DEV'". */
    @Test
    void devAddWithKeywordsAsInVdpaDev8() {
        CliRun add = fake("dev", "add", "name", "foo", "mgmtdev", "vdpasim_net", "mac", "02:00:00:00:00:07", "mtu", "1400");
        assertEquals(0, add.exitCode(), add.err());
        CliRun config = fake("-j", "dev", "config", "show", "foo");
        assertEquals(0, config.exitCode(), config.err());
        assertTrue(config.out().contains("\"mac\":\"02:00:00:00:00:07\""), config.out());
        assertTrue(config.out().contains("\"mtu\":1400"), config.out());
    }

    @Test
    void abbreviationsAndTheBareDevShowAsVdpaDoes() {
        String show = fake("dev", "show").out();
        assertTrue(show.contains("vdpa0"), show);
        for (String[] form : List.of(new String[] {"dev"}, new String[] {"d", "s"}, new String[] {"de", "sh"},
                new String[] {"dev", "l"})) {
            CliRun r = fake(form);
            assertEquals(0, r.exitCode(), String.join(" ", form) + ": " + r.err());
            assertEquals(show, r.out(), String.join(" ", form));
        }
        String mgmt = fake("mgmtdev", "show").out();
        CliRun m = fake("m", "s");
        assertEquals(0, m.exitCode(), m.err());
        assertEquals(mgmt, m.out());
        CliRun help = fake("dev", "help");
        assertEquals(0, help.exitCode(), help.err());
        assertTrue(help.out().contains("Usage: vdpactl dev"), help.out());
    }

    /** -jp indents as vdpa -jp (iproute2's json_writer): four spaces, "key": value, array elements inline. */
    @Test
    void prettyJsonIsIndentedAsIproute2IndentsIt() {
        CliRun dev = fake("-jp", "dev", "show", "vdpa0");
        assertEquals(0, dev.exitCode(), dev.err());
        assertTrue(dev.out().startsWith("{\n    \"dev\": {\n        \"vdpa0\": {\n            \"type\": \"network\",\n"), dev.out());
        assertTrue(dev.out().endsWith("\n        }\n    }\n}\n"), dev.out());
        CliRun mgmt = fake("-jp", "mgmtdev", "show", "vdpasim_net");
        assertTrue(mgmt.out().contains("\"supported_classes\": [\"net\"\n            ]"), mgmt.out());
    }

    /** vdpactl's names first: a device named "name", or "s", and the doctor are what they were. */
    @Test
    void vdpactlsOwnFormsKeepTheirMeaning() {
        assertArrayEquals(new String[] {"dev", "add", "name", "--mgmtdev", "vdpasim_net"},
                IprouteForms.rewrite(new String[] {"dev", "add", "name", "--mgmtdev", "vdpasim_net"}));
        assertArrayEquals(new String[] {"dev", "show", "s"}, IprouteForms.rewrite(new String[] {"dev", "show", "s"}));
        assertArrayEquals(new String[] {"doctor"}, IprouteForms.rewrite(new String[] {"doctor"}));
        assertArrayEquals(new String[] {"-j", "dev", "config", "s"}, IprouteForms.rewrite(new String[] {"-j", "dev", "config", "s"}));
        assertArrayEquals(new String[] {"--fake-state", "d", "dev", "show"},
                IprouteForms.rewrite(new String[] {"--fake-state", "d", "d", "s"}));
        assertArrayEquals(new String[] {"dev", "add", "foo", "--mgmtdev", "vdpasim_net", "--max-vqp", "2"},
                IprouteForms.rewrite(new String[] {"dev", "add", "mgmtdev", "vdpasim_net", "n", "foo", "max", "2"}));
        assertArrayEquals(new String[] {"dev", "set", "foo", "--mac", "02:00:00:00:00:09"},
                IprouteForms.rewrite(new String[] {"dev", "set", "name", "foo", "mac", "02:00:00:00:00:09"}));
        CliRun named = fake("dev", "add", "name", "--mgmtdev", "vdpasim_net");
        assertEquals(0, named.exitCode(), named.err());
        assertTrue(fake("dev", "show", "name").out().contains("name:"), "a device named \"name\"");
    }
}
