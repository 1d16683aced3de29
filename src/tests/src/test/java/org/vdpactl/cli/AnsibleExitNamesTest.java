package org.vdpactl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The Ansible collection's exit table (module_utils/vdpactl.py EXIT_NAMES) is {@link ExitCode}, every code and name. */
class AnsibleExitNamesTest {
    private static final Path MODULE_UTILS = Path.of("ansible/ansible_collections/vdpactl/vdpa/plugins/module_utils/vdpactl.py");

    @Test
    void theCollectionNamesEveryExitCodeAsExitCodeDoes() throws Exception {
        String py = Files.readString(MODULE_UTILS);
        int start = py.indexOf("EXIT_NAMES = {");
        String table = py.substring(start, py.indexOf('}', start));
        Map<Integer, String> collection = new LinkedHashMap<>();
        Matcher m = Pattern.compile("(\\d+): '([A-Z_]+)'").matcher(table);
        while (m.find()) {
            collection.put(Integer.parseInt(m.group(1)), m.group(2));
        }
        Map<Integer, String> cli = new LinkedHashMap<>();
        for (ExitCode c : ExitCode.values()) {
            cli.put(c.code(), c.name());
        }
        assertEquals(cli, collection, MODULE_UTILS + " EXIT_NAMES");
    }
}
