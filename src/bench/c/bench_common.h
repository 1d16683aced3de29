/*
 * Shared by the C yardsticks of scripts/bench (ioctl_loop.c on the host, vhost_loop.c in the VM lane):
 * the clock, the IOTLB workload of IotlbBench / VhostDeviceBench, and the idle thread that turns the
 * process into a multi-threaded one. Why that matters: for every fd-based syscall of a process whose fd
 * table is shared by several threads, Linux takes and drops a reference on the struct file (fdget); a
 * single-threaded process skips that. A JVM always has several threads, so each yardstick runs both ways
 * and the "Threaded" lines are the like-for-like comparison.
 */
#ifndef VDPACTL_BENCH_COMMON_H
#define VDPACTL_BENCH_COMMON_H

#include <linux/vhost_types.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define REGIONS 1024
#define PAGE 4096UL
#define IOVA_BASE 0x100000000UL
/* REGIONS UPDATEs and REGIONS INVALIDATEs, each batch framed by BATCH_BEGIN and BATCH_END */
#define MESSAGES (2 * (REGIONS + 2))

static inline double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* One vhost_msg_v2 filled in and written; returns what write(2) returned. */
static inline ssize_t iotlb_write(int fd, uint8_t type, uint64_t iova, uint64_t size, uint64_t uaddr, uint8_t perm) {
    struct vhost_msg_v2 msg = {.type = VHOST_IOTLB_MSG_V2};
    msg.iotlb.type = type;
    msg.iotlb.iova = iova;
    msg.iotlb.size = size;
    msg.iotlb.uaddr = uaddr;
    msg.iotlb.perm = perm;
    return write(fd, &msg, sizeof msg);
}

/* The workload: map REGIONS pages from uaddr in one batch, unmap them in another. Returns the failed writes. */
static inline int iotlb_map_unmap(int fd, uint64_t uaddr) {
    int failed = 0;
    failed += iotlb_write(fd, VHOST_IOTLB_BATCH_BEGIN, 0, 0, 0, 0) != (ssize_t)sizeof(struct vhost_msg_v2);
    for (unsigned long i = 0; i < REGIONS; i++) {
        failed += iotlb_write(fd, VHOST_IOTLB_UPDATE, IOVA_BASE + i * PAGE, PAGE, uaddr + i * PAGE, VHOST_ACCESS_RW)
                  != (ssize_t)sizeof(struct vhost_msg_v2);
    }
    failed += iotlb_write(fd, VHOST_IOTLB_BATCH_END, 0, 0, 0, 0) != (ssize_t)sizeof(struct vhost_msg_v2);
    failed += iotlb_write(fd, VHOST_IOTLB_BATCH_BEGIN, 0, 0, 0, 0) != (ssize_t)sizeof(struct vhost_msg_v2);
    for (unsigned long i = 0; i < REGIONS; i++) {
        failed += iotlb_write(fd, VHOST_IOTLB_INVALIDATE, IOVA_BASE + i * PAGE, PAGE, 0, 0) != (ssize_t)sizeof(struct vhost_msg_v2);
    }
    failed += iotlb_write(fd, VHOST_IOTLB_BATCH_END, 0, 0, 0, 0) != (ssize_t)sizeof(struct vhost_msg_v2);
    return failed;
}

static void *idle_forever(void *unused) {
    (void)unused;
    for (;;) {
        pause();
    }
    return NULL;
}

/* From here on the process has two threads (and stays so). */
static inline void become_multithreaded(void) {
    pthread_t thread;
    if (pthread_create(&thread, NULL, idle_forever, NULL) != 0) {
        perror("pthread_create");
        exit(1);
    }
}

#endif
