package org.vdpactl.testkit;

import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A fault rule of the fake (docs/fake-faults.md): the matching call on the matching device fails with
 * {@link #errno()}, on its {@link #occurrence()}-th match or on every one.
 */
@Target({})
@Retention(RetentionPolicy.RUNTIME)
public @interface Fault {
    /** Device name or glob ("mlx5-*"). */
    String device();

    /** Call name or glob: an ioctl macro ("VHOST_VDPA_SUSPEND"), a vdpa command ("VDPA_CMD_DEV_NEW"), "open". */
    String call();

    /** The errno symbol ("EIO", "ETIMEDOUT"). */
    String errno() default "EIO";

    /** Which matching call fails (1 = the first); 0: every one. */
    long occurrence() default 0;
}
