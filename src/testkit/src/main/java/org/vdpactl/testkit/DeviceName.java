package org.vdpactl.testkit;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Which device a {@link org.vdpactl.vhost.VhostVdpaDevice} parameter opens ("vdpa0", "mlx5-2"); without it,
 * the first device of the kernel's inventory. The kit closes the handle after the test.
 */
@Target(ElementType.PARAMETER)
@Retention(RetentionPolicy.RUNTIME)
public @interface DeviceName {
    String value();
}
