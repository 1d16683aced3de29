/*
 * vdpactl_vhost.h - jextract input for org.vdpactl.ffi.gen.vhost (vhost_h):
 * vhost / vhost-vdpa ioctls and structs, virtio constants and config layouts,
 * and the vdpa generic-netlink command/attribute enums.
 * See jextract/vhost.args for what is kept.
 */
#ifndef VDPACTL_VHOST_H
#define VDPACTL_VHOST_H

#include <linux/vhost.h>
#include <linux/vhost_types.h>
#include <linux/vdpa.h>
#include <linux/virtio_config.h>
#include <linux/virtio_ids.h>
#include <linux/virtio_net.h>
#include <linux/virtio_blk.h>
#include <linux/virtio_ring.h>

#include "vdpactl_compat.h"

#endif /* VDPACTL_VHOST_H */
