package com.example;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.vdpactl.testkit.Device;
import org.vdpactl.testkit.DeviceName;
import org.vdpactl.testkit.FakeKernelTest;
import org.vdpactl.vhost.VhostVdpaDevice;

/**
 * A first test of a new project whose pom.xml is docs/library.md's build section, word for word:
 * scripts/test-example builds the two together with a local Maven repository of their own, on the Maven the
 * machine has (the README allows 3.8), and fails unless this one test runs and passes.
 */
class FirstTest {
    @Test
    @FakeKernelTest(kernel = "6.12", devices = @Device(name = "a", mgmtdev = "vdpasim_net"))
    void aSimulatedNetDeviceIsAVirtioNetDevice(@DeviceName("a") VhostVdpaDevice device) {
        assertEquals(1, device.getDeviceId()); // VIRTIO_ID_NET
    }
}
