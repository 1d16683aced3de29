package org.vdpactl.fake.state;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Where the fake's state lives by default: XDG_STATE_HOME when absolute, else $HOME's, else the passwd home's. */
class DefaultStateFileTest {
    private static final String PASSWD_HOME = "/home/real";

    private static Path of(Map<String, String> env) {
        return FakeStateStore.defaultStateFile(env, PASSWD_HOME);
    }

    @Test
    void homeFromTheEnvironmentWinsOverThePasswdEntry() {
        assertEquals(Path.of("/some/dir/.local/state/vdpactl/fake-state.json"), of(Map.of("HOME", "/some/dir")));
        assertEquals(Path.of("/home/real/.local/state/vdpactl/fake-state.json"), of(Map.of()));
        assertEquals(Path.of("/home/real/.local/state/vdpactl/fake-state.json"), of(Map.of("HOME", "relative")));
    }

    @Test
    void anAbsoluteXdgStateHomeWinsAndARelativeOneIsIgnored() {
        assertEquals(Path.of("/x/vdpactl/fake-state.json"), of(Map.of("XDG_STATE_HOME", "/x", "HOME", "/some/dir")));
        assertEquals(Path.of("/some/dir/.local/state/vdpactl/fake-state.json"), of(Map.of("XDG_STATE_HOME", "rel", "HOME", "/some/dir")));
    }
}
