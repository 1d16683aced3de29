/*
 * The C side of the VM-lane comparison (scripts/bench --vm, VhostDeviceBench): the same vhost-vdpa calls
 * as the Java benchmark, on the same device, timed by this program itself. Built with the host's gcc
 * (the host's uapi headers; the calls used here are in every kernel since 5.x) and run in the guest.
 *
 * usage: vhost_loop DEVICE [repetitions]
 * prints one line per repetition and operation, "<operation> <ns per call or per message>":
 *   getFeatures     ioctl(VHOST_GET_FEATURES)
 *   getVringBase    ioctl(VHOST_GET_VRING_BASE) of vq 0
 *   iotlbMapUnmap   the IOTLB workload of bench_common.h on a shared memfd, per message
 * first in a single-threaded process, then, as "<operation>Threaded", with a second thread (see bench_common.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/vhost.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include "bench_common.h"

#define IOCTL_CALLS 200000L
#define IOTLB_ROUNDS 50

static void die(const char *what) {
    fprintf(stderr, "vhost_loop: %s: %s\n", what, strerror(errno));
    exit(1);
}

static void measure(int reps, int fd, uint64_t uaddr, const char *suffix) {
    uint64_t features;
    struct vhost_vring_state state = {.index = 0};
    if (iotlb_map_unmap(fd, uaddr) != 0) { /* warm-up */
        die("write IOTLB");
    }
    for (int r = 0; r < reps; r++) {
        double t0 = now_ns();
        for (long i = 0; i < IOCTL_CALLS; i++) {
            if (ioctl(fd, VHOST_GET_FEATURES, &features) != 0) {
                die("VHOST_GET_FEATURES");
            }
        }
        double t1 = now_ns();
        printf("getFeatures%s %.2f\n", suffix, (t1 - t0) / IOCTL_CALLS);
        t0 = now_ns();
        for (long i = 0; i < IOCTL_CALLS; i++) {
            if (ioctl(fd, VHOST_GET_VRING_BASE, &state) != 0) {
                die("VHOST_GET_VRING_BASE");
            }
        }
        t1 = now_ns();
        printf("getVringBase%s %.2f\n", suffix, (t1 - t0) / IOCTL_CALLS);
        t0 = now_ns();
        for (int i = 0; i < IOTLB_ROUNDS; i++) {
            if (iotlb_map_unmap(fd, uaddr) != 0) {
                die("write IOTLB");
            }
        }
        t1 = now_ns();
        printf("iotlbMapUnmap%s %.2f\n", suffix, (t1 - t0) / (IOTLB_ROUNDS * (double)MESSAGES));
        fflush(stdout);
    }
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: vhost_loop DEVICE [repetitions]\n");
        return 2;
    }
    int reps = argc > 2 ? atoi(argv[2]) : 5;
    int fd = open(argv[1], O_RDWR | O_CLOEXEC);
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
    int mfd = memfd_create("vhost_loop", MFD_CLOEXEC);
    if (mfd < 0 || ftruncate(mfd, REGIONS * PAGE) != 0) {
        die("memfd");
    }
    char *mem = mmap(NULL, REGIONS * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, mfd, 0);
    if (mem == MAP_FAILED) {
        die("mmap");
    }
    measure(reps, fd, (uint64_t)(uintptr_t)mem, "");
    become_multithreaded();
    measure(reps, fd, (uint64_t)(uintptr_t)mem, "Threaded");
    munmap(mem, REGIONS * PAGE);
    close(mfd);
    close(fd);
    return 0;
}
