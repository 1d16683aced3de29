/*
 * The C side of the VM-lane comparison (scripts/bench --vm, VhostDeviceBench): the same vhost-vdpa calls
 * as the Java benchmark, on the same device, timed by this program itself. Built with the host's gcc
 * (uapi headers of the host; the calls used here are in every kernel since 5.x) and run in the guest.
 *
 * usage: vhost_loop DEVICE [repetitions]
 * prints one line per repetition and operation, "<operation> <ns per call or per message>":
 *   getFeatures     ioctl(VHOST_GET_FEATURES)
 *   getVringBase    ioctl(VHOST_GET_VRING_BASE) of vq 0
 *   iotlbMapUnmap   per message: BATCH_BEGIN, 1024 one-page UPDATEs of a shared memfd, BATCH_END,
 *                   then the same with INVALIDATEs (2052 vhost_msg_v2 writes)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/vhost.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define REGIONS 1024
#define PAGE 4096UL
#define IOVA_BASE 0x100000000UL
#define IOCTL_CALLS 200000L
#define IOTLB_ROUNDS 50

static int fd;
static struct vhost_msg_v2 msg;

static double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static void die(const char *what) {
    fprintf(stderr, "vhost_loop: %s: %s\n", what, strerror(errno));
    exit(1);
}

static void iotlb(uint8_t type, uint64_t iova, uint64_t size, uint64_t uaddr, uint8_t perm) {
    msg.iotlb.type = type;
    msg.iotlb.iova = iova;
    msg.iotlb.size = size;
    msg.iotlb.uaddr = uaddr;
    msg.iotlb.perm = perm;
    if (write(fd, &msg, sizeof msg) != (ssize_t)sizeof msg) {
        die("write IOTLB");
    }
}

static void map_unmap(char *mem) {
    iotlb(VHOST_IOTLB_BATCH_BEGIN, 0, 0, 0, 0);
    for (unsigned long i = 0; i < REGIONS; i++) {
        iotlb(VHOST_IOTLB_UPDATE, IOVA_BASE + i * PAGE, PAGE, (uint64_t)(uintptr_t)(mem + i * PAGE), VHOST_ACCESS_RW);
    }
    iotlb(VHOST_IOTLB_BATCH_END, 0, 0, 0, 0);
    iotlb(VHOST_IOTLB_BATCH_BEGIN, 0, 0, 0, 0);
    for (unsigned long i = 0; i < REGIONS; i++) {
        iotlb(VHOST_IOTLB_INVALIDATE, IOVA_BASE + i * PAGE, PAGE, 0, 0);
    }
    iotlb(VHOST_IOTLB_BATCH_END, 0, 0, 0, 0);
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: vhost_loop DEVICE [repetitions]\n");
        return 2;
    }
    int reps = argc > 2 ? atoi(argv[2]) : 5;
    fd = open(argv[1], O_RDWR | O_CLOEXEC);
    if (fd < 0) {
        die(argv[1]);
    }
    if (ioctl(fd, VHOST_SET_OWNER) != 0) {
        die("VHOST_SET_OWNER");
    }
    uint64_t backend = (1ULL << VHOST_BACKEND_F_IOTLB_MSG_V2) | (1ULL << VHOST_BACKEND_F_IOTLB_BATCH);
    if (ioctl(fd, VHOST_SET_BACKEND_FEATURES, &backend) != 0) {
        die("VHOST_SET_BACKEND_FEATURES");
    }
    msg.type = VHOST_IOTLB_MSG_V2;
    int mfd = memfd_create("vhost_loop", MFD_CLOEXEC);
    if (mfd < 0 || ftruncate(mfd, REGIONS * PAGE) != 0) {
        die("memfd");
    }
    char *mem = mmap(NULL, REGIONS * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, mfd, 0);
    if (mem == MAP_FAILED) {
        die("mmap");
    }
    uint64_t features;
    struct vhost_vring_state state = {.index = 0};
    map_unmap(mem); /* warm-up */
    for (int r = 0; r < reps; r++) {
        double t0 = now_ns();
        for (long i = 0; i < IOCTL_CALLS; i++) {
            if (ioctl(fd, VHOST_GET_FEATURES, &features) != 0) {
                die("VHOST_GET_FEATURES");
            }
        }
        double t1 = now_ns();
        printf("getFeatures %.2f\n", (t1 - t0) / IOCTL_CALLS);
        t0 = now_ns();
        for (long i = 0; i < IOCTL_CALLS; i++) {
            if (ioctl(fd, VHOST_GET_VRING_BASE, &state) != 0) {
                die("VHOST_GET_VRING_BASE");
            }
        }
        t1 = now_ns();
        printf("getVringBase %.2f\n", (t1 - t0) / IOCTL_CALLS);
        t0 = now_ns();
        for (int i = 0; i < IOTLB_ROUNDS; i++) {
            map_unmap(mem);
        }
        t1 = now_ns();
        printf("iotlbMapUnmap %.2f\n", (t1 - t0) / (IOTLB_ROUNDS * 2.0 * (REGIONS + 2)));
        fflush(stdout);
    }
    munmap(mem, REGIONS * PAGE);
    close(mfd);
    close(fd);
    return 0;
}
