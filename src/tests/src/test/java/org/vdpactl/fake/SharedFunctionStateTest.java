package org.vdpactl.fake;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.vdpactl.fake.device.PortFunction;
import org.vdpactl.fake.inside.FakeInside;
import org.vdpactl.fake.state.FakeStateStore;
import org.vdpactl.sys.Errno;
import org.vdpactl.time.VirtualClock;

/**
 * The PCI function behind an mlx5 management device (issue 35 item 7) lives in the shared state file: what one
 * process sets (the fake's devlink port function set) the next process's dev add finds, and two processes that
 * change different attributes at once both keep theirs, as two devlink commands on one host would.
 */
class SharedFunctionStateTest {
    private static final String MGMT = "pci/0000:08:00.3";
    private static final byte[] MAC = {2, 0, 0, 0, 0, 0x35};

    @TempDir
    Path dir;

    private Path stateFile() {
        return dir.resolve("fake-state.json");
    }

    private FakeKernel shared() {
        return FakeKernel.openShared(stateFile(), new VirtualClock(), List.of());
    }

    @Test
    void whatOneProcessSetsTheNextOneFinds() throws Exception {
        try (FakeKernel a = shared()) {
            a.setFunctionMac(MGMT, MAC);
            a.setFunctionMtu(MGMT, 9000);
            a.setFunctionLink(MGMT, false);
        }
        String saved = Files.readString(stateFile());
        assertTrue(saved.contains("\"function\""), saved);
        try (FakeKernel b = shared()) {
            PortFunction f = FakeInside.function(b, MGMT);
            assertArrayEquals(MAC, f.mac());
            assertEquals(9000, f.mtu());
            assertFalse(f.linkUp());
            assertTrue(FakeInside.function(b, "pci/0000:08:00.2").isDefault(), "the other functions are untouched");
            b.setFunctionMac(MGMT, new byte[6]);
            b.setFunctionMtu(MGMT, PortFunction.DEFAULT_MTU);
            b.setFunctionLink(MGMT, true);
        }
        assertFalse(Files.readString(stateFile()).contains("\"function\""), "a fresh function again: nothing saved");
    }

    @Test
    void twoProcessesChangingDifferentAttributesKeepBoth() {
        try (FakeKernel a = shared(); FakeKernel b = shared()) {
            a.setFunctionMac(MGMT, MAC);
            b.setFunctionMtu(MGMT, 9000);
            a.saveState();
            b.saveState(); // b loaded before a saved: its MTU merges with a's MAC, it does not overwrite it
        }
        try (FakeKernel c = shared()) {
            assertArrayEquals(MAC, FakeInside.function(c, MGMT).mac(), "a's MAC kept by b's save");
            assertEquals(9000, FakeInside.function(c, MGMT).mtu(), "b's MTU");
        }
    }

    @Test
    void aSoftwareDeviceHasNoFunctionAndABadSavedOneIsRefused() throws Exception {
        try (FakeKernel a = shared()) {
            assertEquals(Errno.EOPNOTSUPP, assertThrows(FakeSyscallException.class, () -> a.setFunctionMtu("vdpasim_net", 9000)).errno());
            assertEquals(Errno.ENODEV, assertThrows(FakeSyscallException.class, () -> a.setFunctionMtu("pci/0000:09:00.0", 9000)).errno());
            a.setFunctionMtu(MGMT, 9000);
        }
        String saved = Files.readString(stateFile());
        Files.writeString(stateFile(), saved.replace("\"mtu\" : 9000", "\"mtu\" : 20"));
        var e = assertThrows(FakeStateStore.CorruptStateException.class, this::shared);
        assertTrue(e.getMessage().contains("mgmtdevs[3].function.mtu = 20 is out of range"), e.getMessage());
        Files.writeString(stateFile(), saved.replaceFirst("\"dev\" : \"vdpasim_net\"",
                "\"dev\" : \"vdpasim_net\", \"function\" : { \"mtu\" : 9000 }"));
        e = assertThrows(FakeStateStore.CorruptStateException.class, this::shared);
        assertTrue(e.getMessage().contains("vdpasim_net is a software device"), e.getMessage());
    }
}
