package org.vdpactl.testkit;

import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Gives every test of a class (or one test method) a fresh fake kernel: the kernel release it speaks,
 * the vDPA devices present, fault rules, and the clock. A method's annotation replaces the class's, and a
 * {@code @Nested} class without one runs under its enclosing class's. A declaration no kernel could give (an
 * MTU below 68, a duplicate name, a fault rule that could never fire) fails the test with the reason.
 * Test methods then take {@link KernelUnderTest}, {@link org.vdpactl.sys.Syscalls},
 * {@link org.vdpactl.fake.FakeKernel}, {@link org.vdpactl.abi.KernelProfile},
 * {@link org.vdpactl.time.Clock}, {@link org.vdpactl.mgmt.VdpaNetlink} or an opened
 * {@link org.vdpactl.vhost.VhostVdpaDevice} (see {@link DeviceName}) as parameters. After each test every
 * descriptor the test opened must be closed: a leaked one fails the test, naming where it was opened.
 *
 * <pre>{@code
 * @FakeKernelTest(kernel = "6.1", devices = @Device(name = "mlx5-0", mgmtdev = "mlx5", preset = "mlx5-pre612"))
 * class SuspendPolicyTest {
 *     @Test
 *     void suspendsEveryDevice(Syscalls sys, VdpaNetlink vdpa) { ... }
 * }
 * }</pre>
 *
 * With {@code -Dvdpactl.testkit.backend=kernel} the same tests run on the running kernel instead (devices
 * are created through its vdpa family and deleted after); without vhost-vdpa there the test fails with the
 * reason, or is aborted (skipped) with {@code -Dvdpactl.testkit.requireKernel=false}; it is never passed. Any
 * backend other than "fake" (the default) or "kernel" is refused.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Inherited
@ExtendWith(VdpaKernelExtension.class)
public @interface FakeKernelTest {
    /** The kernel release the fake speaks: "6.1", "6.12", "7.2" or an alias ("oldest", "lts", "newest"). */
    String kernel() default "6.12";

    /**
     * The devices present. Empty: the fake's default inventory (vdpa0 on vdpasim_net, vdpa1 on vdpasim_blk,
     * mlx5-0 … mlx5-3 on four mlx5 management devices pci/0000:08:00.2 … .5). An mlx5 device without a preset,
     * declared or default, gets the release's own mlx5_vdpa: mlx5-61 on 6.1, mlx5-612 on 6.12 and 7.2.
     */
    Device[] devices() default {};

    /** Fault rules (docs/fake-faults.md); none by default. */
    Fault[] faults() default {};

    /** The clock: virtual by default, so modelled latencies are exact and nothing waits. */
    KernelClock clock() default KernelClock.VIRTUAL;
}
