/*
 * FIONREAD on a pipe from C: the yardstick for IoctlBench. Built by scripts/bench with the
 * machine's gcc at benchmark time. Prints one line per repetition: "fionread <ns per call>".
 *
 * usage: ioctl_loop [repetitions] [calls-per-repetition]
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

static double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

int main(int argc, char **argv) {
    int reps = argc > 1 ? atoi(argv[1]) : 10;
    long calls = argc > 2 ? atol(argv[2]) : 2000000L;
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) {
        perror("pipe2");
        return 1;
    }
    volatile int sink = 0;
    int n = 0;
    /* warm-up: page in, settle the CPU frequency */
    for (long i = 0; i < calls / 4; i++) {
        sink += ioctl(fds[0], FIONREAD, &n);
    }
    for (int r = 0; r < reps; r++) {
        double t0 = now_ns();
        for (long i = 0; i < calls; i++) {
            sink += ioctl(fds[0], FIONREAD, &n);
        }
        double t1 = now_ns();
        printf("fionread %.2f\n", (t1 - t0) / (double)calls);
    }
    close(fds[0]);
    close(fds[1]);
    return sink == 0 ? 0 : 2;
}
