package org.vdpactl.mgmt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.vdpactl.fake.FakeKernel;
import org.vdpactl.fake.FakeProcess;
import org.vdpactl.fake.netlink.FakeNetlink;
import org.vdpactl.netlink.ExtAck;
import org.vdpactl.netlink.GenlFamily;
import org.vdpactl.netlink.NetlinkException;
import org.vdpactl.sys.Errno;

/** Which attributes a vdpa command accepts: from the policy dump, or from maxattr when it is refused. */
class VdpaAttributeSupportTest {

    @Test
    void thePolicyDumpAcceptsExactlyThePolicyEntriesOfEachProfile() {
        for (String profile : List.of("6.1", "6.12", "7.2")) {
            try (FakeKernel kernel = FakeKernel.builder().kernel(profile).build()) {
                FakeNetlink.install(kernel);
                try (FakeProcess p = kernel.newProcess(); VdpaNetlink nl = VdpaNetlink.open(p)) {
                    VdpaAttributeSupport s = nl.attributeSupport();
                    assertEquals(VdpaAttributeSupport.Source.POLICY_DUMP, s.source(), profile);
                    assertEquals(Optional.empty(), s.fallbackReason(), profile);
                    assertEquals(EnumSet.of(VdpaAttribute.MGMTDEV_BUS_NAME, VdpaAttribute.MGMTDEV_DEV_NAME, VdpaAttribute.DEV_NAME,
                            VdpaAttribute.DEV_NET_CFG_MACADDR, VdpaAttribute.DEV_NET_CFG_MAX_VQP, VdpaAttribute.DEV_NET_CFG_MTU,
                            VdpaAttribute.DEV_QUEUE_INDEX, VdpaAttribute.DEV_FEATURES), s.accepted(VdpaCommand.DEV_NEW), profile);
                    // a reply-only attribute at or below maxattr is known to the family but refused in requests
                    assertFalse(s.accepts(VdpaCommand.DEV_GET, VdpaAttribute.DEV_ID), profile);
                }
            }
        }
    }

    @Test
    void aRefusedDumpFallsBackToMaxattrAndSaysWhy() {
        GenlFamily f = new GenlFamily("vdpa", 19, 1, 0, 22, List.of(), List.of());
        VdpaAttributeSupport s = VdpaAttributeSupport.probe(f, () -> {
            throw new NetlinkException("CTRL_CMD_GETPOLICY vdpa", Errno.EOPNOTSUPP, ExtAck.NONE);
        });
        assertEquals(VdpaAttributeSupport.Source.MAXATTR, s.source());
        assertEquals(Optional.of("CTRL_CMD_GETPOLICY refused: EOPNOTSUPP"), s.fallbackReason());
        assertTrue(s.accepts(VdpaCommand.DEV_GET, VdpaAttribute.DEV_ID), "maxattr cannot tell reply-only attributes");
        assertTrue(s.accepts(VdpaCommand.DEV_NEW, VdpaAttribute.DEV_FEATURES));
        assertFalse(s.accepts(VdpaCommand.DEV_NEW, VdpaAttribute.DEV_BLK_READ_ONLY), "35 is above maxattr 22");
        assertEquals(Optional.empty(), s.policy());
    }
}
