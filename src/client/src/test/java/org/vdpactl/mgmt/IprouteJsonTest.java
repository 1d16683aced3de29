package org.vdpactl.mgmt;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.vdpactl.vhost.BlkConfig;
import org.vdpactl.vhost.NetConfig;

/**
 * The JSON view against output captured from iproute2's {@code vdpa -j} on the verified 6.12 VM
 * (the first two goldens are its exact bytes), and against the documented fixes of its glitches.
 */
class IprouteJsonTest {
    static final MgmtDevInfo NET = new MgmtDevInfo(null, "vdpasim_net", 0x2, 3, 0x308830028L);
    static final MgmtDevInfo BLK = new MgmtDevInfo(null, "vdpasim_blk", 0x4, 0, 0L);
    static final MgmtDevInfo VDUSE = new MgmtDevInfo(null, "vduse", 0x6, 0, 0L);
    static final VdpaDevInfo VDPA0 = new VdpaDevInfo("vdpa0", null, "vdpasim_net", 1, 0, 3, 256, 1);
    static final VdpaDevInfo VDPA1 = new VdpaDevInfo("vdpa1", null, "vdpasim_blk", 2, 0, 1, 256, 1);

    @Test
    void mgmtdevShowIsWhatIproute2PrintedOnTheVm() {
        assertEquals("{\"mgmtdev\":{\"vdpasim_net\":{\"supported_classes\":[\"net\"],\"max_supported_vqs\":3,"
                        + "\"dev_features\":[\"MTU\",\"MAC\",\"STATUS\",\"CTRL_VQ\",\"CTRL_MAC_ADDR\",\"ANY_LAYOUT\",\"VERSION_1\",\"ACCESS_PLATFORM\"]},"
                        + "\"vdpasim_blk\":{\"supported_classes\":[\"block\"],\"max_supported_vqs\":0,\"dev_features\":[]},"
                        + "\"vduse\":{\"supported_classes\":[\"net\",\"block\"],\"max_supported_vqs\":0,\"dev_features\":[]}}}",
                IprouteJson.mgmtdevs(List.of(NET, BLK, VDUSE)).toString());
    }

    @Test
    void devShowIsWhatIproute2PrintedOnTheVm() {
        assertEquals("{\"dev\":{\"vdpa0\":{\"type\":\"network\",\"mgmtdev\":\"vdpasim_net\",\"vendor_id\":0,\"max_vqs\":3,\"max_vq_size\":256},"
                        + "\"vdpa1\":{\"type\":\"block\",\"mgmtdev\":\"vdpasim_blk\",\"vendor_id\":0,\"max_vqs\":1,\"max_vq_size\":256}}}",
                IprouteJson.devs(List.of(VDPA0, VDPA1)).toString());
    }

    @Test
    void aMgmtdevWithABusIsKeyedBusSlashName() {
        MgmtDevInfo pci = new MgmtDevInfo("pci", "0000:08:00.2", 0x2, 33, 1L << 40);
        assertEquals("{\"mgmtdev\":{\"pci/0000:08:00.2\":{\"supported_classes\":[\"net\"],\"max_supported_vqs\":33,"
                + "\"dev_features\":[\"bit_40\"]}}}", IprouteJson.mgmtdevs(List.of(pci)).toString());
        assertEquals("pci/0000:08:00.2", IprouteJson.devs(List.of(new VdpaDevInfo("m0", "pci", "0000:08:00.2", 1, 0x15b3, 66, 1024, 1)))
                .get("dev").get("m0").get("mgmtdev").asText());
    }

    @Test
    void netConfigKeysHaveNoTrailingSpaces() {
        DevConfig c = new DevConfig("vdpa0", 1, 0x300010028L, 0x308830028L,
                NetConfig.ofNetlink("02:00:00:00:00:01", 1500, 3, 4), null, null, null);
        assertEquals("{\"config\":{\"vdpa0\":{\"mac\":\"02:00:00:00:00:01\",\"link\":\"up\",\"link_announce\":true,"
                + "\"max_vq_pairs\":4,\"mtu\":1500,\"negotiated_features\":[\"MTU\",\"MAC\",\"STATUS\",\"VERSION_1\",\"ACCESS_PLATFORM\"]}}}",
                IprouteJson.configs(List.of(c)).toString());
    }

    @Test
    void blockConfigIsShownWhereIproute2PrintsNothing() {
        BlkConfig b = BlkConfig.ofNetlink(0x40000L, 4096L, 512L, 32L, 1, 0, 0, 1, 1L, 0xffffffffL, 1L, 512L, 0xffffffffL, 1L);
        String json = IprouteJson.configs(List.of(new DevConfig("vdpa1", 2, null, 0x308007646L, null, b, false, true))).toString();
        assertEquals("{\"config\":{\"vdpa1\":{\"capacity\":262144,\"size_max\":4096,\"blk_size\":512,\"seg_max\":32,\"num_queues\":1,"
                + "\"physical_block_exp\":0,\"alignment_offset\":0,\"min_io_size\":1,\"opt_io_size\":1,\"max_discard_sectors\":4294967295,"
                + "\"max_discard_seg\":1,\"discard_sector_alignment\":512,\"max_write_zeroes_sectors\":4294967295,\"max_write_zeroes_seg\":1,"
                + "\"read_only\":false,\"flush\":true}}}", json);
    }

    @Test
    void vstatsNameTheQueueAndKeepTheCounterOrder() {
        VendorStats rx = new VendorStats("vdpa0", 1, 0x300030028L, null, 0,
                List.of(new VendorStats.Stat("rx packets", 7), new VendorStats.Stat("rx bytes", -1L)));
        assertEquals("{\"vstats\":{\"vdpa0\":{\"queue_type\":\"rx\",\"rx packets\":7,\"rx bytes\":18446744073709551615}}}",
                IprouteJson.vstats(rx).toString());
        VendorStats cvq = new VendorStats("vdpa0", 1, 0x300030028L, null, 2, List.of());
        assertEquals("control_vq", IprouteJson.vstats(cvq).get("vstats").get("vdpa0").get("queue_type").asText(),
                "with CTRL_VQ and one pair, queue 2 is the control queue");
        VendorStats mq = new VendorStats("m0", 1, (1L << 17) | (1L << 22), 4, 7, List.of());
        assertEquals("tx", mq.queueType());
        assertEquals("control_vq", new VendorStats("m0", 1, (1L << 17) | (1L << 22), 4, 8, List.of()).queueType());
    }
}
