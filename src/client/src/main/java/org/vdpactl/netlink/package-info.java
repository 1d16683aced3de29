/**
 * Netlink and generic netlink: message and attribute codec, family resolution through nlctrl, extended
 * acks, and {@link org.vdpactl.netlink.GenlSocket}, a request/reply socket over the syscall seam, modelled on
 * rust-netlink's netlink-packet-core.
 */
package org.vdpactl.netlink;
