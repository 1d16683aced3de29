/**
 * The vdpa generic-netlink family, as iproute2's {@code vdpa} uses it: management devices, devices (add with
 * MAC, MTU, max VQ pairs, features; set; delete), config and vendor statistics
 * ({@link org.vdpactl.mgmt.VdpaNetlink}), with iproute2's JSON and text shapes ({@link org.vdpactl.mgmt.IprouteJson}).
 */
package org.vdpactl.mgmt;
