/*
 * vdpactl_compat.h - constants vdpactl needs that older Linux UAPI headers lack.
 *
 * Bindings are generated against Linux 6.12 UAPI headers (scripts/regen-bindings
 * puts them before /usr/include), where almost everything below already exists
 * and the #ifndef blocks are no-ops. The blocks document the values and keep the
 * bindings complete if someone generates against older headers (e.g. Debian 12's
 * linux-libc-dev 6.1). Every value was checked against the kernel source named
 * in the comment ("6.12" = Linux 6.12.117 include/uapi/linux headers as shipped in
 * Debian linux-source-6.12 6.12.117-1~deb12u1; "7.2" = Linux 7.2.13 / mainline,
 * see docs/spec/kernel-abi.md section 2).
 *
 * Enum members (vdpa netlink commands/attributes) cannot be added with #ifndef,
 * so they are checked with _Static_assert instead (see the end of this file).
 */
#ifndef VDPACTL_COMPAT_H
#define VDPACTL_COMPAT_H

#include <linux/types.h>
#include <linux/ioctl.h>
#include <linux/vhost.h>
#include <linux/vhost_types.h>
#include <linux/vdpa.h>
#include <linux/virtio_config.h>
#include <linux/virtio_ids.h>
#include <linux/virtio_net.h>
#include <linux/virtio_blk.h>
#include <linux/netlink.h>
#include <linux/genetlink.h>

/* ------------------------------------------------------------------ */
/* vhost ioctls (include/uapi/linux/vhost.h)                          */
/* ------------------------------------------------------------------ */

#ifndef VHOST_VIRTIO
#define VHOST_VIRTIO 0xAF
#endif

/* Worker ioctls, 6.12 vhost.h / vhost_types.h (added in 6.5). The structs come
 * with the ioctls, so they are declared only when the ioctls are missing. */
#ifndef VHOST_NEW_WORKER
struct vhost_worker_state {
	unsigned int worker_id;
};
struct vhost_vring_worker {
	unsigned int index;
	unsigned int worker_id;
};
#define VHOST_NEW_WORKER _IOR(VHOST_VIRTIO, 0x8, struct vhost_worker_state)         /* 0x8004AF08 */
#define VHOST_FREE_WORKER _IOW(VHOST_VIRTIO, 0x9, struct vhost_worker_state)        /* 0x4004AF09 */
#define VHOST_ATTACH_VRING_WORKER _IOW(VHOST_VIRTIO, 0x15, struct vhost_vring_worker) /* 0x4008AF15 */
#define VHOST_GET_VRING_WORKER _IOWR(VHOST_VIRTIO, 0x16, struct vhost_vring_worker)  /* 0xC008AF16 */
#endif

/* 6.12 vhost.h (added in 6.4) */
#ifndef VHOST_VDPA_RESUME
#define VHOST_VDPA_RESUME _IO(VHOST_VIRTIO, 0x7E)                                   /* 0x0000AF7E */
#endif

/* 6.12 vhost.h (added in 6.7) */
#ifndef VHOST_VDPA_GET_VRING_DESC_GROUP
#define VHOST_VDPA_GET_VRING_DESC_GROUP _IOWR(VHOST_VIRTIO, 0x7F, struct vhost_vring_state) /* 0xC008AF7F */
#endif

/* 6.12 vhost.h (added in 6.9) */
#ifndef VHOST_VDPA_GET_VRING_SIZE
#define VHOST_VDPA_GET_VRING_SIZE _IOWR(VHOST_VIRTIO, 0x82, struct vhost_vring_state) /* 0xC008AF82 */
#endif

/* 7.2 vhost.h / vhost_types.h (after 6.12; handled by vhost-net only, not by
 * vhost-vdpa). Struct and ioctls were added together. */
#ifndef VHOST_GET_FEATURES_ARRAY
struct vhost_features_array {
	__u64 count; /* number of entries present in features array */
	__u64 features[];
};
#define VHOST_GET_FEATURES_ARRAY _IOR(VHOST_VIRTIO, 0x83, struct vhost_features_array) /* 0x8008AF83 */
#define VHOST_SET_FEATURES_ARRAY _IOW(VHOST_VIRTIO, 0x83, struct vhost_features_array) /* 0x4008AF83 */
#endif

/* 6.12.117 vhost.h (stable backport; also 7.2). Only effective with
 * CONFIG_VHOST_ENABLE_FORK_OWNER_CONTROL=y. */
#ifndef VHOST_FORK_OWNER_KTHREAD
#define VHOST_FORK_OWNER_KTHREAD 0
#endif
#ifndef VHOST_FORK_OWNER_TASK
#define VHOST_FORK_OWNER_TASK 1
#endif
#ifndef VHOST_SET_FORK_FROM_OWNER
#define VHOST_SET_FORK_FROM_OWNER _IOW(VHOST_VIRTIO, 0x84, __u8)                     /* 0x4001AF84 */
#endif
#ifndef VHOST_GET_FORK_FROM_OWNER
#define VHOST_GET_FORK_FROM_OWNER _IOR(VHOST_VIRTIO, 0x85, __u8)                     /* 0x8001AF85 */
#endif

/* ------------------------------------------------------------------ */
/* vhost backend feature bit numbers (6.12 vhost_types.h)              */
/* ------------------------------------------------------------------ */
#ifndef VHOST_BACKEND_F_RESUME
#define VHOST_BACKEND_F_RESUME 0x5                  /* added in 6.4 */
#endif
#ifndef VHOST_BACKEND_F_ENABLE_AFTER_DRIVER_OK
#define VHOST_BACKEND_F_ENABLE_AFTER_DRIVER_OK 0x6  /* added in 6.6 */
#endif
#ifndef VHOST_BACKEND_F_DESC_ASID
#define VHOST_BACKEND_F_DESC_ASID 0x7               /* added in 6.7; requires IOTLB_ASID */
#endif
#ifndef VHOST_BACKEND_F_IOTLB_PERSIST
#define VHOST_BACKEND_F_IOTLB_PERSIST 0x8           /* added in 6.7 */
#endif

/* ------------------------------------------------------------------ */
/* virtio transport feature bits (6.12 virtio_config.h)                */
/* ------------------------------------------------------------------ */
/* Note: VIRTIO_TRANSPORT_F_END is 42 in 6.12 but 41 in 6.1; a macro that
 * exists cannot be corrected here, so vdpactl should not rely on it. */
#ifndef VIRTIO_F_NOTIFICATION_DATA
#define VIRTIO_F_NOTIFICATION_DATA 38
#endif
#ifndef VIRTIO_F_NOTIF_CONFIG_DATA
#define VIRTIO_F_NOTIF_CONFIG_DATA 39
#endif
#ifndef VIRTIO_F_RING_RESET
#define VIRTIO_F_RING_RESET 40
#endif
#ifndef VIRTIO_F_ADMIN_VQ
#define VIRTIO_F_ADMIN_VQ 41
#endif

/* ------------------------------------------------------------------ */
/* virtio-net feature bits (6.12 virtio_net.h unless noted)            */
/* ------------------------------------------------------------------ */
#ifndef VIRTIO_NET_F_DEVICE_STATS
#define VIRTIO_NET_F_DEVICE_STATS 50
#endif
#ifndef VIRTIO_NET_F_VQ_NOTF_COAL
#define VIRTIO_NET_F_VQ_NOTF_COAL 52
#endif
#ifndef VIRTIO_NET_F_NOTF_COAL
#define VIRTIO_NET_F_NOTF_COAL 53
#endif
#ifndef VIRTIO_NET_F_GUEST_USO4
#define VIRTIO_NET_F_GUEST_USO4 54
#endif
#ifndef VIRTIO_NET_F_GUEST_USO6
#define VIRTIO_NET_F_GUEST_USO6 55
#endif
#ifndef VIRTIO_NET_F_HOST_USO
#define VIRTIO_NET_F_HOST_USO 56
#endif
#ifndef VIRTIO_NET_F_HASH_REPORT
#define VIRTIO_NET_F_HASH_REPORT 57
#endif
#ifndef VIRTIO_NET_F_GUEST_HDRLEN
#define VIRTIO_NET_F_GUEST_HDRLEN 59
#endif
#ifndef VIRTIO_NET_F_RSS
#define VIRTIO_NET_F_RSS 60
#endif
#ifndef VIRTIO_NET_F_RSC_EXT
#define VIRTIO_NET_F_RSC_EXT 61
#endif
#ifndef VIRTIO_NET_F_STANDBY
#define VIRTIO_NET_F_STANDBY 62
#endif
#ifndef VIRTIO_NET_F_SPEED_DUPLEX
#define VIRTIO_NET_F_SPEED_DUPLEX 63
#endif
/* 7.2 virtio_net.h (after 6.12): UDP tunnel GSO. Bits 65..68 lie beyond the
 * 64-bit VHOST_GET_FEATURES word (only reachable via the features array);
 * 46/47 are the matching guest-offload bit numbers. */
#ifndef VIRTIO_NET_F_GUEST_UDP_TUNNEL_GSO
#define VIRTIO_NET_F_GUEST_UDP_TUNNEL_GSO 65
#endif
#ifndef VIRTIO_NET_F_GUEST_UDP_TUNNEL_GSO_CSUM
#define VIRTIO_NET_F_GUEST_UDP_TUNNEL_GSO_CSUM 66
#endif
#ifndef VIRTIO_NET_F_HOST_UDP_TUNNEL_GSO
#define VIRTIO_NET_F_HOST_UDP_TUNNEL_GSO 67
#endif
#ifndef VIRTIO_NET_F_HOST_UDP_TUNNEL_GSO_CSUM
#define VIRTIO_NET_F_HOST_UDP_TUNNEL_GSO_CSUM 68
#endif
#ifndef VIRTIO_NET_F_GUEST_UDP_TUNNEL_GSO_MAPPED
#define VIRTIO_NET_F_GUEST_UDP_TUNNEL_GSO_MAPPED 46
#endif
#ifndef VIRTIO_NET_F_GUEST_UDP_TUNNEL_GSO_CSUM_MAPPED
#define VIRTIO_NET_F_GUEST_UDP_TUNNEL_GSO_CSUM_MAPPED 47
#endif

/* 6.12 virtio_blk.h (added in 6.3) */
#ifndef VIRTIO_BLK_F_ZONED
#define VIRTIO_BLK_F_ZONED 17
#endif

/* ------------------------------------------------------------------ */
/* vdpa generic netlink (6.12 vdpa.h)                                  */
/* ------------------------------------------------------------------ */
#ifndef VDPA_GENL_NAME
#define VDPA_GENL_NAME "vdpa"
#endif
#ifndef VDPA_GENL_VERSION
#define VDPA_GENL_VERSION 0x1
#endif

/*
 * enum vdpa_attr was renumbered after 6.1: in 6.1 attribute 21 is
 * VDPA_ATTR_VDPA_DEV_SUPPORTED_FEATURES and VDPA_ATTR_MAX is 22; since 6.2
 * (checked: 6.12, 7.2) attribute 21 is VDPA_ATTR_DEV_BLK_CFG_CAPACITY, 21..36
 * are the block config attributes and VDPA_ATTR_MAX is 37. The kernel's policy
 * is strict (unknown attribute type -> EINVAL), so binding the old numbering
 * would silently mis-parse replies and build invalid requests. Enum members
 * cannot be patched with #ifndef, so refuse to generate against pre-6.12
 * headers. Likewise VDPA_CMD_DEV_ATTR_SET (= 8) is new in 6.12.
 * If this fails: run scripts/regen-bindings, which puts 6.12 UAPI headers first.
 */
_Static_assert(VDPA_ATTR_MAX > 30,
	"linux/vdpa.h has the pre-6.2 vdpa_attr numbering; generate against Linux >= 6.12 UAPI headers");
_Static_assert(VDPA_ATTR_DEV_FEATURES == 20, "unexpected vdpa_attr numbering (VDPA_ATTR_DEV_FEATURES)");
_Static_assert(VDPA_ATTR_DEV_BLK_CFG_CAPACITY == 21, "unexpected vdpa_attr numbering (VDPA_ATTR_DEV_BLK_CFG_CAPACITY)");
_Static_assert(VDPA_ATTR_DEV_BLK_FLUSH == 36, "unexpected vdpa_attr numbering (VDPA_ATTR_DEV_BLK_FLUSH)");
_Static_assert(VDPA_CMD_DEV_ATTR_SET == 8,
	"linux/vdpa.h lacks VDPA_CMD_DEV_ATTR_SET (= 8); generate against Linux >= 6.12 UAPI headers");

/* ------------------------------------------------------------------ */
/* netlink                                                             */
/* ------------------------------------------------------------------ */
/* SOL_NETLINK is not in the netlink UAPI headers (glibc bits/socket.h and
 * the kernel's include/linux/socket.h define it). */
#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif
/* 6.12 netlink.h (added in 4.2 / 4.12); kept for completeness */
#ifndef NETLINK_CAP_ACK
#define NETLINK_CAP_ACK 10
#endif
#ifndef NETLINK_EXT_ACK
#define NETLINK_EXT_ACK 11
#endif

#endif /* VDPACTL_COMPAT_H */
