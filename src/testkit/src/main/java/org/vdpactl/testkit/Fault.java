package org.vdpactl.testkit;

import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A fault rule of the fake (docs/fake-faults.md): the matching call on the matching device fails with
 * {@link #errno()}, on its {@link #occurrence()}-th match or on every one. Delays and firmware timeouts have no
 * annotation form: add them in the test, {@code kernel.faults().addRule(FaultRule.delayAlways("a", "set_map", 40))}
 * on the injected {@link org.vdpactl.fake.FakeKernel}, before the code under test runs.
 */
@Target({})
@Retention(RetentionPolicy.RUNTIME)
public @interface Fault {
    /**
     * Device name or glob ("mlx5-*"): it must match a device of the test (a declared one, or one of the default
     * inventory), or the rule is refused, as it could never fire.
     */
    String device();

    /**
     * Call name or glob: an ioctl macro ("VHOST_VDPA_SUSPEND"), a vdpa command ("VDPA_CMD_DEV_NEW"), "open", a
     * driver op ("set_map"); a name no call has is refused with the list of valid ones.
     */
    String call();

    /** The errno symbol ("EIO", "ETIMEDOUT"). */
    String errno() default "EIO";

    /** Which matching call fails (1 = the first); 0: every one; negative: refused. */
    long occurrence() default 0;
}
