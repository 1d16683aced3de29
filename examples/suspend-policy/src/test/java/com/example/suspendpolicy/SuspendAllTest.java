package com.example.suspendpolicy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.vdpactl.sys.Syscalls;
import org.vdpactl.testkit.Device;
import org.vdpactl.testkit.Fault;
import org.vdpactl.testkit.FakeKernelTest;

import com.example.suspendpolicy.SuspendAll.Outcome;
import com.example.suspendpolicy.SuspendAll.Result;

/** The policy on vdpactl's fake kernel: two kernel releases and one fault rule, no hardware. */
class SuspendAllTest {
    private static final String PCI = "pci/0000:08:00.2";

    @Test
    @FakeKernelTest(kernel = "6.12", devices = {@Device(name = "a", mgmtdev = "vdpasim_net"), @Device(name = "b", mgmtdev = "vdpasim_net"),
            @Device(name = "m", mgmtdev = "mlx5")})
    void suspendsEveryDeviceOfTheManagementDeviceOnly(Syscalls sys) {
        assertEquals(List.of(new Result("a", Outcome.SUSPENDED, null), new Result("b", Outcome.SUSPENDED, null)),
                new SuspendAll(sys).suspend("vdpasim_net"));
    }

    // snippet first-kit-test (docs/library.md)
    @Test
    @FakeKernelTest(kernel = "6.12", devices = {@Device(name = "a", mgmtdev = "vdpasim_net"), @Device(name = "b", mgmtdev = "vdpasim_net")},
            faults = @Fault(device = "b", call = "VHOST_VDPA_SUSPEND", errno = "EIO"))
    void aRefusalResumesTheDevicesAlreadySuspended(Syscalls sys) {
        assertEquals(List.of(new Result("a", Outcome.ROLLED_BACK, null), new Result("b", Outcome.FAILED, "EIO")),
                new SuspendAll(sys).suspend("vdpasim_net"));
    }
    // end snippet

    @Test
    @FakeKernelTest(kernel = "6.1", devices = {@Device(name = "a", mgmtdev = "vdpasim_net"), @Device(name = "b", mgmtdev = "vdpasim_net")},
            faults = @Fault(device = "b", call = "VHOST_VDPA_SUSPEND", errno = "EIO"))
    void onLinux61ThereIsNoResumeAndThePolicySaysSo(Syscalls sys) {
        List<Result> r = new SuspendAll(sys).suspend("vdpasim_net");
        assertEquals(Outcome.LEFT_SUSPENDED, r.getFirst().outcome(), r.toString());
        assertEquals(new Result("b", Outcome.FAILED, "EIO"), r.get(1));
    }

    @Test
    @FakeKernelTest(kernel = "6.1", devices = @Device(name = "m0", mgmtdev = "mlx5", preset = "mlx5-pre612"))
    void anMlx5FunctionOnLinux61(Syscalls sys) {
        assertEquals(List.of(new Result("m0", Outcome.SUSPENDED, null)), new SuspendAll(sys).suspend(PCI));
    }
}
