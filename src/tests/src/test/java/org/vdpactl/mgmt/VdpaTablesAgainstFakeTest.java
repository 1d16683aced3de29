package org.vdpactl.mgmt;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.EnumSet;
import java.util.Set;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.vdpactl.fake.FakeKernel;
import org.vdpactl.fake.FakeProcess;
import org.vdpactl.fake.netlink.FakeNetlink;
import org.vdpactl.ffi.gen.vhost.vhost_h;
import org.vdpactl.netlink.GenlRequest;
import org.vdpactl.sys.Errno;
import org.vdpactl.sys.SyscallException;
import org.vdpactl.vhost.NetConfig;

/**
 * The client's vdpa netlink tables are checked against the generated constants and against the
 * fake kernel (profile 6.12), which takes its numbers from the bindings on its own: a wrong
 * command number reaches genetlink's EOPNOTSUPP, a wrong attribute number puts a value into
 * another field.
 */
class VdpaTablesAgainstFakeTest {
    /** Reply types only (docs/spec/kernel-abi.md §7.2): the family has no op for them. */
    private static final Set<VdpaCommand> NO_OP = EnumSet.of(VdpaCommand.UNSPEC, VdpaCommand.MGMTDEV_NEW);

    private final FakeKernel kernel = FakeKernel.builder().build();
    private final FakeProcess p = kernel.newProcess();

    {
        FakeNetlink.install(kernel);
    }

    @AfterEach
    void tearDown() {
        p.close();
        kernel.close();
    }

    @ParameterizedTest
    @EnumSource(VdpaCommand.class)
    void commandNumberIsTheGeneratedConstant(VdpaCommand c) throws ReflectiveOperationException {
        assertEquals(vhost_h.class.getMethod(c.constantName()).invoke(null), c.number(), c.constantName());
    }

    @ParameterizedTest
    @EnumSource(VdpaAttribute.class)
    void attributeNumberIsTheGeneratedConstant(VdpaAttribute a) throws ReflectiveOperationException {
        assertEquals(vhost_h.class.getMethod(a.constantName()).invoke(null), a.number(), a.constantName());
    }

    @ParameterizedTest
    @EnumSource(VdpaCommand.class)
    void theFakeHasAnOpForEveryCommandTheClientSends(VdpaCommand c) {
        int errno = errnoOfEmptyRequest(c);
        if (NO_OP.contains(c)) {
            assertEquals(Errno.EOPNOTSUPP, errno, c.constantName());
        } else {
            assertEquals(Errno.EINVAL, errno, () -> c.constantName() + " answered " + Errno.name(errno));
        }
    }

    /** The errno of a do-request without attributes (0 when it succeeds). */
    private int errnoOfEmptyRequest(VdpaCommand c) {
        try (VdpaNetlink nl = VdpaNetlink.open(p)) {
            nl.socket().doit(GenlRequest.of(c.constantName(), nl.family().id(), c.number(), nl.family().version(), w -> { }));
            return 0;
        } catch (SyscallException e) {
            return e.errno();
        }
    }

    @Test
    void theFakesRepliesCarryTheClientsAttributeNumbers() {
        try (VdpaNetlink nl = VdpaNetlink.open(p)) {
            MacAddress mac = MacAddress.parse("02:00:00:00:00:42");
            nl.addDevice(DeviceSpec.of("t0", "vdpasim_net").withMac(mac).withMtu(1400));
            NetConfig net = nl.config("t0").net();
            assertEquals(mac.toString(), net.mac());
            assertEquals(1400, net.mtu());
            VdpaDevInfo d = nl.device("t0");
            assertEquals("t0", d.name());
            assertEquals(vhost_h.VIRTIO_ID_NET(), d.deviceId());
            assertEquals("vdpasim_net", d.mgmtDevName());
            MgmtDevInfo m = nl.mgmtDevice("vdpasim_net");
            assertEquals(1L << vhost_h.VIRTIO_ID_NET(), m.supportedClasses());
        }
    }
}
