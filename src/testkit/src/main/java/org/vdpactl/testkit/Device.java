package org.vdpactl.testkit;

import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** One vDPA device present when the test starts (see {@link FakeKernelTest#devices()}). */
@Target({})
@Retention(RetentionPolicy.RUNTIME)
public @interface Device {
    /** The vdpa device name ("vdpa0", "mlx5-0"). */
    String name();

    /**
     * Its management device: "vdpasim_net", "vdpasim_blk", or "mlx5" (a ConnectX-like PCI function of its
     * own, with the latency {@link #preset()}).
     */
    String mgmtdev() default "vdpasim_net";

    /** mlx5 only: the latency preset ("mlx5-pre612", "mlx5-611", "mlx5-612"); empty: the default, mlx5-612. */
    String preset() default "";

    /** Provisioned MAC ("02:00:00:00:00:07"); empty: none. */
    String mac() default "";

    /** Provisioned MTU; 0: none. */
    int mtu() default 0;

    /** Provisioned queue pairs; 0: none. */
    int maxVqPairs() default 0;
}
