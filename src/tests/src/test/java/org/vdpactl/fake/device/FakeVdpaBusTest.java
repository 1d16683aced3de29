package org.vdpactl.fake.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.vdpactl.fake.vhost.Vhost.errno;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.vdpactl.fake.inside.FakeInside;
import org.vdpactl.fake.FakeKernel;
import org.vdpactl.fake.FakeProcess;
import org.vdpactl.fake.bus.Provisioning;
import org.vdpactl.fake.errno.KernelError;
import org.vdpactl.fake.state.Inventory;
import org.vdpactl.ffi.gen.libc.libc_h;
import org.vdpactl.sys.Errno;
import org.vdpactl.time.VirtualClock;

/** dev_add / dev_del on the fake bus: driver checks, names, minors, and the blocking delete. */
class FakeVdpaBusTest {
    private static final long V1_AP = (1L << 32) | (1L << 33);

    private static int addErrno(FakeKernel k, String mgmt, String name, Provisioning p) {
        try {
            FakeInside.addDevice(k, mgmt, name, p);
            return 0;
        } catch (KernelError e) {
            return e.errno();
        }
    }

    @Test
    void aSlashInTheNameBecomesAnExclamationMarkAsInTheDriverCore() {
        try (FakeKernel k = FakeKernel.builder().build()) {
            FakeInside.addDevice(k, "vdpasim_net", "../../etc", Provisioning.NONE);
            Assertions.assertTrue(FakeInside.device(k, "..!..!etc").isPresent());
            Assertions.assertFalse(FakeInside.device(k, "../../etc").isPresent());
        }
    }

    @Test
    void driverChecksComeBeforeTheName() {
        try (FakeKernel k = FakeKernel.builder().build()) {
            assertEquals(Errno.EINVAL, addErrno(k, "vdpasim_net", "vdpa0", new Provisioning(null, null, null, 1L << 40)));
            assertEquals(Errno.EEXIST, addErrno(k, "vdpasim_net", "vdpa0", Provisioning.NONE));
            assertEquals(Errno.ENOSPC, addErrno(k, "pci/0000:08:00.2", "x", Provisioning.NONE), "one device per mlx5 mgmtdev");
            assertEquals(Errno.ENODEV, addErrno(k, "pci/0000:09:00.0", "x", Provisioning.NONE));
        }
    }

    @Test
    void mlx5Provisioning() {
        try (FakeKernel k = FakeInside.inventory(FakeKernel.builder(), Inventory.empty()).build()) {
            assertEquals(65, FakeInside.addManagementDevice(k, "mlx5", "pci", "0000:08:00.2", null).maxSupportedVqs());
            assertEquals(Errno.EOPNOTSUPP, addErrno(k, "pci/0000:08:00.2", "m", new Provisioning(null, null, null, 1L << 32)));
            assertEquals(Errno.EINVAL, addErrno(k, "pci/0000:08:00.2", "m", new Provisioning(null, null, null, V1_AP | (1L << 40))));
            assertEquals(Errno.EINVAL, addErrno(k, "pci/0000:08:00.2", "m", new Provisioning(null, null, 33, null)));
            var d = FakeInside.addDevice(k, "pci/0000:08:00.2", "m", Provisioning.NONE).netlinkView();
            assertEquals(3, d.maxVqs(), "one queue pair by default");
            assertEquals(0, d.deviceFeatures() & (1L << 15), "MRG_RXBUF dropped without provisioned features");
            assertEquals(0x15B3, d.vendorId());
            // is_index_valid before SET_FEATURES: VQ 0 and 1 only (Mlx5ConformanceSuite has the negotiated cases)
            assertEquals(Errno.EINVAL, assertThrows(KernelError.class, () -> d.vendorStats(2)).errno());
            assertEquals(Errno.EAGAIN, assertThrows(KernelError.class, () -> d.vendorStats(1)).errno(), "VQ 1 is not RDY");
        }
    }

    @Test
    void vdpaSimNetFacts() {
        try (FakeKernel k = FakeKernel.builder().build()) {
            var d = FakeInside.device(k, "vdpa0").orElseThrow().netlinkView();
            assertEquals(0x308830028L, d.deviceFeatures());
            assertEquals(List.of("rx packets", "rx bytes", "rx errors", "rx overruns", "rx drops"),
                    d.vendorStats(0).stream().map(e -> e.getKey()).toList());
            assertEquals(3, d.vendorStats(2).size());
            assertEquals(Errno.EINVAL, assertThrows(KernelError.class, () -> d.vendorStats(3)).errno());
            var m = FakeInside.bus(k).managementDevices().getFirst();
            assertEquals(0x2, m.supportedClasses());
            assertEquals(3, m.maxSupportedVqs());
            assertEquals((1L << 10) | (1L << 13) | (1L << 20), m.provisionableAttributes());
            var blk = FakeInside.bus(k).managementDevices().get(1);
            assertEquals(List.of(0x4L, 0, 0L, 0L), List.of(blk.supportedClasses(), blk.maxSupportedVqs(),
                    blk.supportedFeatures(), blk.provisionableAttributes()));
            assertFalse(FakeInside.device(k, "vdpa1").orElseThrow().netlinkView().hasVendorStats());
        }
    }

    @Test
    void aKernelBuiltWithVduseHasItsMgmtdevButNoVduseDeviceToAdd() {
        try (FakeKernel k = FakeKernel.builder().build()) {
            List<String> names = FakeInside.bus(k).managementDevices().stream().map(m -> m.displayName()).toList();
            assertEquals("vduse", names.getLast(), "registered at boot after the inventory's mgmtdevs: " + names);
            var vduse = FakeInside.bus(k).managementDevice(null, "vduse").orElseThrow();
            assertEquals(List.of(0x6L, 0, 0L, 0L), List.of(vduse.supportedClasses(), vduse.maxSupportedVqs(),
                    vduse.supportedFeatures(), vduse.provisionableAttributes()));
            KernelError e = assertThrows(KernelError.class, () -> FakeInside.bus(k).addDevice(vduse, "v0", Provisioning.NONE));
            assertEquals(Errno.EINVAL, e.errno());
            assertEquals(null, e.extack(), "vduse's dev_add sets no extack");
            assertTrue(FakeInside.inventory(k).mgmtdevs().stream().noneMatch(m -> "vduse".equals(m.dev())),
                    "vduse is part of the kernel, not of the saved inventory");
        }
        try (FakeKernel k = FakeKernel.builder().vduse(false).build()) {
            assertTrue(FakeInside.bus(k).managementDevice(null, "vduse").isEmpty());
        }
    }

    @Test
    void minorsAreLowestFree() throws Exception {
        try (FakeKernel k = FakeKernel.builder().build()) {
            k.deleteDevice("vdpa1");
            k.deleteDevice("mlx5-0");
            assertEquals(1, FakeInside.addDevice(k, "vdpasim_blk", "blk", Provisioning.NONE).minor());
            assertEquals(2, FakeInside.addDevice(k, "vdpasim_net", "net", Provisioning.NONE).minor());
            assertEquals(6, FakeInside.addDevice(k, "vdpasim_net", "net2", Provisioning.NONE).minor());
        }
    }

    @Test
    void deleteWaitsForTheNodeToClose() throws Exception {
        VirtualClock clock = new VirtualClock();
        try (FakeKernel k = FakeKernel.builder().clock(clock).build(); FakeProcess p = k.newProcess()) {
            int fd = p.open("/dev/vhost-vdpa-0", libc_h.O_RDWR());
            clock.sleepNanos(5_000_000);
            CompletableFuture<Long> del = CompletableFuture.supplyAsync(() -> {
                try {
                    k.deleteDevice("vdpa0");
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
                return clock.nanoTime();
            });
            // the node goes first (cdev_device_del), then the delete waits: seeing it gone means the wait has begun
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (FakeInside.bus(k).node(0).isPresent() && !del.isDone() && System.nanoTime() < deadline) {
                Thread.sleep(1);
            }
            assertTrue(FakeInside.bus(k).node(0).isEmpty(), "DEV_DEL removed the node");
            assertFalse(del.isDone(), "DEV_DEL returned while the node was open");
            assertEquals(Errno.ENOENT, errno(() -> p.open("/dev/vhost-vdpa-0", libc_h.O_RDWR())));
            CompletableFuture<Integer> listing = CompletableFuture.supplyAsync(() -> FakeInside.bus(k).devices().size());
            assertThrows(TimeoutException.class, () -> listing.get(100, TimeUnit.MILLISECONDS),
                    "the bus lock is held while DEV_DEL waits");
            p.close(fd);
            assertEquals(5_000_000L, del.get(10, TimeUnit.SECONDS), "the deleter continues at the close");
            assertEquals(5, listing.get(10, TimeUnit.SECONDS));
            assertEquals(Errno.ENOENT, errno(() -> p.open("/dev/vhost-vdpa-0", libc_h.O_RDWR())));
            assertTrue(FakeInside.device(k, "vdpa0").isEmpty());
        }
    }
}
