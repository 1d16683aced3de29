package org.vdpactl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.vdpactl.abi.KernelProfiles;

/**
 * vdpa_rehearse's {@code fake_kernel} choices (the documentation and the argument spec) are the fake's kernel
 * profiles: a new profile that the collection does not list would be refused by Ansible before vdpactl sees it.
 */
class AnsibleFakeKernelChoicesTest {
    private static final Path MODULE = Path.of("ansible/ansible_collections/vdpactl/vdpa/plugins/modules/vdpa_rehearse.py");

    @Test
    void theRehearseModuleOffersEveryKernelProfile() throws Exception {
        String py = Files.readString(MODULE);
        List<List<String>> lists = new ArrayList<>();
        // the DOCUMENTATION block's "choices: [...]" under fake_kernel and the argument spec's fake_kernel=dict(choices=[...])
        Matcher m = Pattern.compile("fake_kernel(?:=dict\\(|:)[^\\[]*?choices[:=] ?\\[([^\\]]*)\\]", Pattern.DOTALL).matcher(py);
        while (m.find()) {
            lists.add(Pattern.compile("'([^']*)'").matcher(m.group(1)).results().map(r -> r.group(1)).toList());
        }
        assertEquals(List.of(KernelProfiles.VERSIONS, KernelProfiles.VERSIONS), lists, MODULE + ": fake_kernel choices");
    }
}
