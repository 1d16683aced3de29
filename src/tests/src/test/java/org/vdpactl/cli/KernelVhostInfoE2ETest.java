package org.vdpactl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.vdpactl.conformance.device.RunningKernel;
import org.vdpactl.mgmt.Iproute2Vdpa;

/**
 * `vdpactl vhost info` on the VM lane's /dev/vhost-vdpa-0 (vdpasim_net, MAC 02:00:00:00:00:01)
 * against iproute2's `vdpa -j dev config show vdpa0`: the same MAC, MTU and link state. Runs only in
 * the real-kernel lane (tag "kernel").
 */
@Tag("kernel")
class KernelVhostInfoE2ETest {
    private final ObjectMapper json = new ObjectMapper();

    @Test
    void vhostInfoAgreesWithIproute2sConfigShow() throws Exception {
        CliRun r = CliRun.of("--backend", "kernel", "--json", "vhost", "info", "vdpa0");
        assertEquals(0, r.exitCode(), r.err());
        JsonNode info = json.readTree(r.out());
        assertEquals(1, info.get("device_id").asInt());
        // vdpasim_net's features on the running kernel: 6.1's driver has no VIRTIO_NET_F_STATUS (bit 16)
        long features = RunningKernel.profile().driverFeatures("vdpasim_net", 0x308830028L);
        assertEquals("0x" + Long.toHexString(features), info.get("features").asText());
        JsonNode cfg = info.get("config");
        assertEquals("02:00:00:00:00:01", cfg.get("mac").asText());

        JsonNode dev = Iproute2Vdpa.normalise(Iproute2Vdpa.json("dev", "config", "show", "vdpa0")).get("config").get("vdpa0");
        assertEquals(dev.get("mac").asText(), cfg.get("mac").asText());
        assertEquals(dev.get("mtu").asInt(), cfg.get("mtu").asInt());
        if ((features & (1L << 16)) != 0) {
            boolean linkUp = (cfg.get("status").asInt() & 1) != 0;
            assertEquals(dev.get("link").asText(), linkUp ? "up" : "down");
        } else {
            // without VIRTIO_NET_F_STATUS the status field is not valid (virtio 1.2, 5.1.4), so vhost info leaves it out;
            // 6.1's netlink sends it anyway, and iproute2 prints it
            assertTrue(cfg.get("status") == null, "status shown without VIRTIO_NET_F_STATUS: " + cfg);
        }
    }

    @Test
    void vhostInfoOfTheBlockDeviceDecodesItsCapacity() throws Exception {
        CliRun r = CliRun.of("--backend", "kernel", "--json", "vhost", "info", "vdpa1");
        assertEquals(0, r.exitCode(), r.err());
        JsonNode info = json.readTree(r.out());
        assertEquals(2, info.get("device_id").asInt());
        // sizeof(struct virtio_blk_config) of the running kernel: 72 on 6.1, 96 from 6.3 (zoned fields)
        assertEquals(RunningKernel.profile().driverConfigSize("vdpasim_blk", 96), info.get("config_size").asInt());
        assertEquals(0x40000, info.get("config").get("capacity").asLong());
    }
}
