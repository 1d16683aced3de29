package org.vdpactl.vhost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;
import org.vdpactl.sys.Errno;

/**
 * The EOPNOTSUPP hint of an ioctl that needs a device capability comes from the backend bit that gates it
 * ({@code UapiIoctl.gate()}) and the bit's own words ({@link BackendFeature#absent()}): a new gated ioctl gets
 * its hint without an edit of {@link VhostErrorHints}. The kernel-specific hints (6.1's RESUME) stay.
 */
class VhostErrorHintsTest {

    private static String eopnotsupp(VhostIoctl op) {
        return VhostErrorHints.forIoctl(op, Errno.EOPNOTSUPP, Boolean.TRUE, 3, 2);
    }

    @Test
    void theGatesAreTheKernelsCapabilityBits() {
        Map<String, String> gates = new TreeMap<>();
        Arrays.stream(VhostIoctl.values()).filter(op -> op.gate() != null)
                .forEach(op -> gates.put(op.kernelName(), op.gate().kernelName()));
        // docs/spec/kernel-abi.md §3.4/§3.5: the op each ioctl calls is what the bit advertises
        assertEquals(Map.of(
                "VHOST_VDPA_SUSPEND", "VHOST_BACKEND_F_SUSPEND",
                "VHOST_VDPA_RESUME", "VHOST_BACKEND_F_RESUME",
                "VHOST_VDPA_GET_VRING_DESC_GROUP", "VHOST_BACKEND_F_DESC_ASID"), gates);
    }

    @Test
    void aGatedIoctlsHintNamesItsBitWhatTheDeviceLacksAndWhatToDo() {
        assertEquals("the device does not offer VHOST_BACKEND_F_SUSPEND: the parent driver has no suspend op; such a"
                + " device can only be stopped by a reset", eopnotsupp(VhostIoctl.VDPA_SUSPEND));
        assertEquals("the device does not offer VHOST_BACKEND_F_RESUME: the parent driver has no resume op; reset and"
                + " replay the vring state instead", eopnotsupp(VhostIoctl.VDPA_RESUME));
        assertEquals("the device does not offer VHOST_BACKEND_F_DESC_ASID: its driver has no get_vq_desc_group op, so"
                + " there are no separate descriptor groups", eopnotsupp(VhostIoctl.VDPA_GET_VRING_DESC_GROUP));
    }

    @Test
    void everyGatingBitSaysInItsOwnWordsWhatItsAbsenceMeans() {
        String generic = BackendFeature.IOTLB_BATCH.absent(); // a bit that gates no ioctl
        for (VhostIoctl op : VhostIoctl.values()) {
            if (op.gate() != null) {
                assertNotEquals(generic, op.gate().absent(), op + " is gated by " + op.gate() + ", which declares no text");
                assertTrue(eopnotsupp(op).contains(op.gate().kernelName()), eopnotsupp(op));
            }
        }
    }

    @Test
    void ungatedIoctlsKeepTheirOwnHintsAndTheKernelSpecificOnesStay() {
        assertTrue(eopnotsupp(VhostIoctl.SET_BACKEND_FEATURES).startsWith("a bit is unknown to this kernel"));
        assertTrue(eopnotsupp(VhostIoctl.VDPA_GET_VRING_SIZE).contains("batch_mapping=0"));
        assertNull(eopnotsupp(VhostIoctl.GET_FEATURES));
        // 6.1 has no RESUME ioctl: its EFAULT and EPERM are not the gate's EOPNOTSUPP
        assertTrue(VhostErrorHints.forIoctl(VhostIoctl.VDPA_RESUME, Errno.EFAULT, true, 3, 2).contains("predates"));
        assertTrue(VhostErrorHints.forIoctl(VhostIoctl.VDPA_RESUME, Errno.EPERM, true, 3, 2).contains("predates"));
    }
}
