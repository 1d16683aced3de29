/**
 * The per-kernel facts both the client and the fake read: which vhost-vdpa ioctls, backend features and vdpa\n * netlink commands and attributes each profiled Linux release has ({@link org.vdpactl.abi.KernelProfile}, data\n * with its kernel sources in docs/kernel-profiles.md), and the uapi names of the generated bindings\n * ({@link org.vdpactl.abi.UapiIoctl}, {@link org.vdpactl.abi.UapiVdpaCommand}). Stable: the enums grow with the\n * headers; the profile records may gain components.
 */
package org.vdpactl.abi;
