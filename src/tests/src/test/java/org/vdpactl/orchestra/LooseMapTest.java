package org.vdpactl.orchestra;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.vdpactl.fake.FakeKernel;
import org.vdpactl.fake.FakeProcess;
import org.vdpactl.fake.fault.FaultRule;
import org.vdpactl.fake.inside.FakeInside;
import org.vdpactl.fake.state.Inventory;
import org.vdpactl.sys.Errno;
import org.vdpactl.time.VirtualClock;
import org.vdpactl.vhost.GuestMemory;
import org.vdpactl.vhost.IotlbMessage;
import org.vdpactl.vhost.IotlbPermission;

/**
 * The loose IOTLB entries of a device session (shadow rings, the control queue's own address space):
 * one that is still mapped is remembered until its INVALIDATE has been written, so that a failed
 * write leaves it on the list the rollback invalidates (issue 36 item 13).
 */
class LooseMapTest {

    @Test
    void aFailedInvalidateBeforeARemapKeepsTheEntryToUndo() {
        Inventory inv = new Inventory(List.of(new Inventory.Mgmt("vdpasim_net", null, "vdpasim_net", null)),
                List.of(new Inventory.Device("vdpa0", "vdpasim_net", "02:00:00:00:00:01", null, null, null, null, null)));
        // write 1 is the first UPDATE, write 2 the INVALIDATE the second mapLoose of the same place sends first
        FakeKernel.Builder b = FakeKernel.builder().kernel("6.12").fault(FaultRule.errnoAt("*", "write", 2, Errno.EIO));
        try (FakeKernel k = FakeInside.inventory(b, inv).build(); FakeProcess p = k.newProcess();
             GuestMemory ring = GuestMemory.create(p, "shadow-ring", 4096);
             DeviceSession s = DeviceSession.open(p, new VirtualClock(), new DeviceTarget("vdpa0", "/dev/vhost-vdpa-0"))) {
            s.setUp(false);
            IotlbMessage update = IotlbMessage.update(0, 0x1000_0000L, 4096, ring.address(), IotlbPermission.RW);
            s.mapLoose(update);
            assertThrows(RuntimeException.class, () -> s.mapLoose(update), "the INVALIDATE before the remap fails");
            assertTrue(s.hasLooseMaps(0), "the entry the failed INVALIDATE left mapped is still to undo");
            s.dropLooseMaps(0);
            assertFalse(s.hasLooseMaps(0), "undone once its INVALIDATE went through");
        }
    }
}
