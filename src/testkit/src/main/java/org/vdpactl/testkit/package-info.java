/**
 * The test kit: {@link org.vdpactl.testkit.FakeKernelTest} and {@link org.vdpactl.testkit.VdpaKernelExtension}
 * give each test a fresh fake kernel (or the running one, opted in), inject it and its handles, and fail a test
 * that leaks a file descriptor. Stable API (docs/library.md).
 */
package org.vdpactl.testkit;
