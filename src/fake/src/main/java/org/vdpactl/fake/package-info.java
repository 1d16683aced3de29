/**
 * The fake kernel's API: {@link org.vdpactl.fake.FakeKernel} holds the devices of one kernel release and
 * hands out {@link org.vdpactl.fake.FakeProcess}es, each an implementation of {@link org.vdpactl.sys.Syscalls}
 * with its own fd table and credentials. Everything below this package is the fake's inside.
 */
package org.vdpactl.fake;
