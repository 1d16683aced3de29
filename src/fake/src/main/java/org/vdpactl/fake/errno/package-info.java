/**
 * The fake kernel's error carrier, {@link org.vdpactl.fake.errno.KernelError}: the errno (and
 * extack) a kernel path fails with, as the kernel's functions return {@code -EINVAL}. It sits below
 * every other fake package and imports none of them, so that the fake's root (the
 * {@link org.vdpactl.fake.FakeKernel} that wires the sub-packages together) and the sub-packages
 * that throw it form no import cycle.
 */
package org.vdpactl.fake.errno;
