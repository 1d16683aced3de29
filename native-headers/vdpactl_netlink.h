/*
 * vdpactl_netlink.h - jextract input for org.vdpactl.ffi.gen.netlink (netlink_h):
 * netlink / generic-netlink message headers and constants.
 * See jextract/netlink.args for what is kept.
 */
#ifndef VDPACTL_NETLINK_H
#define VDPACTL_NETLINK_H

#include <linux/netlink.h>
#include <linux/genetlink.h>

/* SOL_NETLINK and a few netlink socket options are defined there if absent. */
#include "vdpactl_compat.h"

#endif /* VDPACTL_NETLINK_H */
