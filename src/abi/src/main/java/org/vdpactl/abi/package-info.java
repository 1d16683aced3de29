/**
 * The per-kernel facts both the client and the fake read: which vhost-vdpa ioctls, backend features and vdpa
 * netlink commands and attributes each profiled Linux release has ({@link org.vdpactl.abi.KernelProfile}, data
 * with its kernel sources in docs/kernel-profiles.md), and the uapi names of the generated bindings
 * ({@link org.vdpactl.abi.UapiIoctl}, {@link org.vdpactl.abi.UapiVdpaCommand}). Stable: the enums grow with the
 * headers; the profile records may gain components.
 */
package org.vdpactl.abi;
