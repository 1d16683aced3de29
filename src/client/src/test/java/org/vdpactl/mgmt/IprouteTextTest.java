package org.vdpactl.mgmt;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.vdpactl.vhost.BlkConfig;
import org.vdpactl.vhost.NetConfig;

/** The plain-text rendering reads like iproute2's {@code vdpa}, without its trailing spaces. */
class IprouteTextTest {

    @Test
    void mgmtdevs() {
        assertEquals("""
                vdpasim_net:
                  supported_classes net
                  max_supported_vqs 3
                  dev_features MTU MAC STATUS CTRL_VQ CTRL_MAC_ADDR ANY_LAYOUT VERSION_1 ACCESS_PLATFORM
                vdpasim_blk:
                  supported_classes block
                  max_supported_vqs 0
                  dev_features
                """, IprouteText.mgmtdevs(List.of(IprouteJsonTest.NET, IprouteJsonTest.BLK)));
    }

    @Test
    void devs() {
        assertEquals("""
                vdpa0: type network mgmtdev vdpasim_net vendor_id 0 max_vqs 3 max_vq_size 256
                vdpa1: type block mgmtdev vdpasim_blk vendor_id 0 max_vqs 1 max_vq_size 256
                """, IprouteText.devs(List.of(IprouteJsonTest.VDPA0, IprouteJsonTest.VDPA1)));
    }

    @Test
    void configsAndVstats() {
        DevConfig net = new DevConfig("vdpa0", 1, 0x300000020L, 0x308830028L,
                NetConfig.ofNetlink("02:00:00:00:00:01", 1500, 1, null), null, null, null);
        BlkConfig b = BlkConfig.ofNetlink(0x40000L, null, 512L, null, null, null, null, null, null, null, null, null, null, null);
        assertEquals("""
                vdpa0: mac 02:00:00:00:00:01 link up link_announce false mtu 1500
                  negotiated_features MAC VERSION_1 ACCESS_PLATFORM
                vdpa1: capacity 262144 blk_size 512 read_only false flush true
                """, IprouteText.configs(List.of(net, new DevConfig("vdpa1", 2, null, 0x308007646L, null, b, false, true))));
        assertEquals("vdpa0: queue_type tx tx packets 3 tx drops 0\n", IprouteText.vstats(new VendorStats("vdpa0", 1, 0x300000000L, null, 1,
                List.of(new VendorStats.Stat("tx packets", 3), new VendorStats.Stat("tx drops", 0)))));
    }
}
