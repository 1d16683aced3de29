/*
 * The C yardstick of IotlbBench as a shared library, called by the benchmark inside the JMH process
 * (one downcall per cycle of MESSAGES messages): the C loop of ioctl_loop.c's iotlbDevNull, measured in
 * the same process, thread and run as the Java rows.
 */
#include "bench_common.h"

/* any address: /dev/null does not look at it */
#define FAKE_UADDR 0x7f0000000000UL

int iotlb_cycle(int fd) {
    return iotlb_map_unmap(fd, FAKE_UADDR);
}
