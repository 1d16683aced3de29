/*
 * vdpactl_libc.h - jextract input for org.vdpactl.ffi.gen.libc (libc_h):
 * the few glibc functions, constants and structs vdpactl calls directly.
 * See jextract/libc.args for what is kept.
 */
#ifndef VDPACTL_LIBC_H
#define VDPACTL_LIBC_H

/*
 * No _GNU_SOURCE: with it glibc declares the sockaddr arguments of bind/sendto/
 * recvfrom/getsockname as a transparent union (__SOCKADDR_ARG), which jextract
 * cannot map. The two GNU functions vdpactl needs are declared below instead,
 * with glibc's prototypes, and MFD_* come from linux/memfd.h.
 */

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <unistd.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <linux/netlink.h> /* struct sockaddr_nl, NETLINK_GENERIC */
#include <linux/memfd.h>   /* MFD_CLOEXEC, MFD_ALLOW_SEALING */

/* glibc >= 2.27 <sys/mman.h> (under _GNU_SOURCE) */
extern int memfd_create(const char *__name, unsigned int __flags);
/* glibc <unistd.h> (under _GNU_SOURCE) */
extern int pipe2(int __pipedes[2], int __flags);

/* Kernel-internal errno that leaks to user space from mmap() on vhost-vdpa
 * (include/linux/errno.h; libc prints "Unknown error 524"). */
#ifndef ENOTSUPP
#define ENOTSUPP 524
#endif

/* SOL_NETLINK: glibc defines it in bits/socket.h; value from the kernel's
 * include/linux/socket.h. */
#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

#endif /* VDPACTL_LIBC_H */
