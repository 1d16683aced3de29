/*
 * The host's C yardsticks of scripts/bench, built with the machine's gcc at benchmark time:
 *   fionread       ioctl(fd, FIONREAD, &n) on a pipe (IoctlBench), ns per call
 *   iotlbDevNull   the IOTLB workload (bench_common.h) written to /dev/null (IotlbBench.encodeWriteDevNull),
 *                  ns per message
 * first in a single-threaded process, then, as "<name>Threaded", with a second thread (see bench_common.h).
 * Prints one line per repetition and yardstick: "<name> <ns>".
 *
 * usage: ioctl_loop [repetitions] [calls-per-repetition]
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/ioctl.h>

#include "bench_common.h"

/* any address: /dev/null does not look at it */
#define FAKE_UADDR 0x7f0000000000UL

static long failures;

static void measure(int reps, long calls, int pipe_fd, int null, const char *suffix) {
    int n = 0;
    long cycles = calls / MESSAGES + 1;
    for (long i = 0; i < calls / 4; i++) { /* warm-up: page in, settle the CPU frequency */
        failures += ioctl(pipe_fd, FIONREAD, &n) != 0;
    }
    for (int r = 0; r < reps; r++) {
        double t0 = now_ns();
        for (long i = 0; i < calls; i++) {
            failures += ioctl(pipe_fd, FIONREAD, &n) != 0;
        }
        double t1 = now_ns();
        printf("fionread%s %.2f\n", suffix, (t1 - t0) / (double)calls);
        t0 = now_ns();
        for (long c = 0; c < cycles; c++) {
            failures += iotlb_map_unmap(null, FAKE_UADDR);
        }
        t1 = now_ns();
        printf("iotlbDevNull%s %.2f\n", suffix, (t1 - t0) / (double)(cycles * MESSAGES));
        fflush(stdout);
    }
}

int main(int argc, char **argv) {
    int reps = argc > 1 ? atoi(argv[1]) : 10;
    long calls = argc > 2 ? atol(argv[2]) : 2000000L;
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) {
        perror("pipe2");
        return 1;
    }
    int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (null < 0) {
        perror("/dev/null");
        return 1;
    }
    measure(reps, calls, fds[0], null, "");
    become_multithreaded();
    measure(reps, calls, fds[0], null, "Threaded");
    close(null);
    close(fds[0]);
    close(fds[1]);
    if (failures != 0) {
        fprintf(stderr, "ioctl_loop: %ld calls failed\n", failures);
        return 1;
    }
    return 0;
}
