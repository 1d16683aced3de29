package org.vdpactl.testkit;

import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** One vDPA device present when the test starts (see {@link FakeKernelTest#devices()}). */
@Target({})
@Retention(RetentionPolicy.RUNTIME)
public @interface Device {
    /** The vdpa device name ("vdpa0", "mlx5-0"): unique in the test, no '/', whitespace or control characters. */
    String name();

    /**
     * Its management device: "vdpasim_net", "vdpasim_blk", or "mlx5" (a ConnectX-like PCI function of its
     * own, with the latency {@link #preset()}). Management handles: "vdpasim_net" and "vdpasim_blk" for the
     * simulators; the declared mlx5 devices get "pci/0000:08:00.2", "pci/0000:08:00.3", … in declaration order,
     * as the default inventory numbers them (after function 7: "pci/0000:08:01.0").
     */
    String mgmtdev() default "vdpasim_net";

    /**
     * mlx5 only: the latency preset ("mlx5-pre612", "mlx5-611", "mlx5-612"); empty: the kernel release's own
     * mlx5_vdpa, as in the default inventory (mlx5-61 on 6.1, mlx5-612 on 6.12 and 7.2). A preset on a
     * simulator is refused.
     */
    String preset() default "";

    /** Provisioned MAC ("02:00:00:00:00:07"); empty: none. */
    String mac() default "";

    /** Provisioned MTU, 68 to 65535 (the kernel refuses less with EINVAL); 0: none. */
    int mtu() default 0;

    /** Provisioned queue pairs; 0: none. */
    int maxVqPairs() default 0;
}
