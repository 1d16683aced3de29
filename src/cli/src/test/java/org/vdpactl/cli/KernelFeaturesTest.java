package org.vdpactl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.vdpactl.mgmt.VdpaAttribute;
import org.vdpactl.mgmt.VdpaAttributeSupport;
import org.vdpactl.mgmt.VdpaCommand;
import org.vdpactl.netlink.GenlPolicy;
import org.vdpactl.netlink.NetlinkAbi;
import org.vdpactl.netlink.GenlFamily;
import org.vdpactl.vhost.BackendFeature;
import org.vdpactl.vhost.BackendFeatures;

/** What vdpactl says about a kernel's missing features (the CLI tests cover the commands). */
class KernelFeaturesTest {
    private static GenlFamily vdpa(int maxAttr) {
        return new GenlFamily("vdpa", 19, 1, 0, maxAttr, List.of(), List.of());
    }

    @Test
    void anAttributeAboveTheFamilysMaxattrIsNamedWithTheFirstKernelThatParsesIt() {
        // 6.1's family (maxattr 22) parses every attribute dev add sends...
        assertEquals(Optional.empty(), KernelFeatures.unknownAttribute(vdpa(22), List.of(VdpaAttribute.DEV_NET_CFG_MACADDR,
                VdpaAttribute.DEV_NET_CFG_MTU, VdpaAttribute.DEV_NET_CFG_MAX_VQP, VdpaAttribute.DEV_FEATURES)));
        // ...but not the block attributes 6.12 numbers from 21 up to 36
        String m = KernelFeatures.unknownAttribute(vdpa(22), List.of(VdpaAttribute.DEV_BLK_READ_ONLY)).orElseThrow();
        assertEquals("VDPA_ATTR_DEV_BLK_READ_ONLY is not known to this kernel's vdpa family (maxattr 22); first in Linux 6.12", m);
        String mtu = KernelFeatures.unknownAttribute(vdpa(12), List.of(VdpaAttribute.DEV_NET_CFG_MTU)).orElseThrow();
        assertTrue(mtu.startsWith("VDPA_ATTR_DEV_NET_CFG_MTU (--mtu) is not known") && mtu.endsWith("first in Linux 6.1"), mtu);
    }

    @Test
    void withThePolicyDumpAReplyOnlyAttributeIsRefusedNamingTheCommand() {
        GenlFamily f = vdpa(37);
        GenlPolicy onlyMac = new GenlPolicy(
                Map.of(VdpaCommand.DEV_NEW.number(), new GenlPolicy.OpPolicy(VdpaCommand.DEV_NEW.number(), Optional.of(0), Optional.empty())),
                Map.of(0, Map.of(VdpaAttribute.DEV_NET_CFG_MACADDR.number(),
                        new GenlPolicy.AttrRule(NetlinkAbi.NL_ATTR_TYPE_BINARY, null, null, 6, 6))));
        VdpaAttributeSupport s = VdpaAttributeSupport.fromPolicy(f, onlyMac);
        assertEquals(Optional.empty(), KernelFeatures.unknownAttribute(s, VdpaCommand.DEV_NEW, List.of(VdpaAttribute.DEV_NET_CFG_MACADDR)));
        // MTU is below maxattr 37 but has no policy entry here: the kernel would say "Unsupported attribute"
        assertEquals("VDPA_ATTR_DEV_NET_CFG_MTU (--mtu) is not accepted by this kernel's VDPA_CMD_DEV_NEW (no entry in its"
                        + " policy dump); first in Linux 6.1",
                KernelFeatures.unknownAttribute(s, VdpaCommand.DEV_NEW, List.of(VdpaAttribute.DEV_NET_CFG_MACADDR,
                        VdpaAttribute.DEV_NET_CFG_MTU)).orElseThrow());
        // no profiled kernel accepts a reply-only attribute in a request
        assertTrue(KernelFeatures.unknownAttribute(s, VdpaCommand.DEV_NEW, List.of(VdpaAttribute.DEV_BLK_READ_ONLY)).orElseThrow()
                .endsWith("first in a newer kernel"));
    }

    @Test
    void eachMissingBackendFeatureHasItsCost() {
        List<String> none = KernelFeatures.costs(BackendFeatures.of(BackendFeature.IOTLB_MSG_V2, BackendFeature.IOTLB_BATCH));
        assertEquals(4, none.size(), none.toString());
        assertTrue(none.get(0).startsWith("no SUSPEND: rehearse resets the device instead of suspending"), none.get(0));
        assertTrue(none.get(1).startsWith("no RESUME: rehearse resets and restarts instead of resuming"), none.get(1));
        assertEquals(List.of(), KernelFeatures.costs(new BackendFeatures(0x17E)));
    }
}
