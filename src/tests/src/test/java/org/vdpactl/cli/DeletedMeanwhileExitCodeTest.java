package org.vdpactl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.vdpactl.fake.state.FakeStateStore;

/** The second of two concurrent deletes of one device exits as the second of two run one after the other. */
class DeletedMeanwhileExitCodeTest {
    @Test
    void theSecondDeleteExitsNotFound() {
        var e = new FakeStateStore.DeletedMeanwhileException("x1 was deleted meanwhile: ENODEV");
        assertEquals(ExitCode.NOT_FOUND, ExitCodeMapper.of(e), "as the second of two deletes run one after the other");
    }
}
