package org.vdpactl.fake.vhost;

import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;

import org.vdpactl.fake.inside.FakeInside;
import org.vdpactl.fake.vfs.CharDeviceDriver;
import org.vdpactl.fake.vfs.CharDeviceModule;
import org.vdpactl.fake.vfs.FakeFile;
import org.vdpactl.fake.FakeKernel;
import org.vdpactl.fake.device.FakeVdpaDevice;

/**
 * vhost_vdpa as the driver of the vdpa devices' char nodes, the module part of drivers/vhost/vdpa.c:
 * vhost_vdpa_init registers the "vhost-vdpa" region, vhost_vdpa_probe gives a device its
 * {@code struct vhost_vdpa} ({@link VhostVdpa}, made on first use here) and vhost_vdpa_open opens it.
 * {@link FakeKernel} finds it through {@link Module}, listed in META-INF/services.
 */
public final class VhostVdpaDriver implements CharDeviceDriver {
    private final FakeKernel kernel;
    private final Map<FakeVdpaDevice, VhostVdpa> vhostDrivers = Collections.synchronizedMap(new WeakHashMap<>());

    private VhostVdpaDriver(FakeKernel kernel) {
        this.kernel = kernel;
    }

    /** module_init(vhost_vdpa_init): one driver per fake kernel. */
    public static final class Module implements CharDeviceModule {
        @Override
        public CharDeviceDriver init(FakeKernel kernel) {
            return new VhostVdpaDriver(kernel);
        }
    }

    /** The vhost-vdpa driver of {@code kernel}. */
    public static VhostVdpaDriver of(FakeKernel kernel) {
        return FakeInside.charDeviceDriver(kernel, VhostVdpaDriver.class);
    }

    /** The vhost-vdpa driver state of a device (IOTLB tables, owner, batch) for tests and diagnostics. */
    public VhostVdpa vhost(FakeVdpaDevice device) {
        return vhostDrivers.computeIfAbsent(device, d -> new VhostVdpa(d, kernel.kernelProfile()));
    }

    @Override
    public int major() {
        return VhostVdpaFile.MAJOR;
    }

    @Override
    public FakeFile open(FakeVdpaDevice device) {
        VhostVdpa v = vhost(device);
        device.mutex().lock();
        try {
            v.open();
        } finally {
            device.mutex().unlock();
            device.deliverInterrupts(); // a link rule fired at the open raises its config interrupt here
        }
        return new VhostVdpaFile(v, FakeInside.hostMemory(kernel));
    }
}
