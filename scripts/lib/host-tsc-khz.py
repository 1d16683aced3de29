#!/usr/bin/env python3
"""Prints this x86_64 host's TSC frequency in kHz, measured: RDTSC against CLOCK_MONOTONIC_RAW.

scripts/vm-run passes it to the lane guest as tsc_early_khz=: QEMU's TCG gives the guest the host's own
TSC (RDTSC in the guest reads the host's counter), but the guest kernel cannot calibrate it: its PIT
calibration fails under TCG's uneven I/O timing and the lane kernel has no ACPI, so no HPET or PM timer
to calibrate against ("tsc: Marking TSC unstable due to could not calculate TSC khz"); it then falls
back to the jiffies clock, which advances in 4 ms steps. Python has no RDTSC, so the instruction is run
from an executable page through ctypes. Exit 1 with one line on stderr when it cannot measure.
"""
import ctypes
import mmap
import platform
import sys
import time

# rdtsc; shl rdx, 32; or rax, rdx; ret
RDTSC = bytes([0x0F, 0x31, 0x48, 0xC1, 0xE2, 0x20, 0x48, 0x09, 0xD0, 0xC3])


def rdtsc_function():
    page = mmap.mmap(-1, mmap.PAGESIZE, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
    page.write(RDTSC)
    address = ctypes.addressof(ctypes.c_char.from_buffer(page))
    return page, ctypes.CFUNCTYPE(ctypes.c_uint64)(address)


def sample(rdtsc):
    """A (monotonic ns, tsc) pair whose two reads were close together (the tightest of a few tries)."""
    best = None
    for _ in range(20):
        t0 = time.clock_gettime_ns(time.CLOCK_MONOTONIC_RAW)
        tsc = rdtsc()
        t1 = time.clock_gettime_ns(time.CLOCK_MONOTONIC_RAW)
        if best is None or t1 - t0 < best[0]:
            best = (t1 - t0, (t0 + t1) // 2, tsc)
    return best[1], best[2]


def main():
    if platform.machine() != "x86_64":
        print(f"host-tsc-khz: host is {platform.machine()}, not x86_64", file=sys.stderr)
        return 1
    try:
        page, rdtsc = rdtsc_function()
    except (OSError, ValueError) as e:
        print(f"host-tsc-khz: no executable page for RDTSC: {e}", file=sys.stderr)
        return 1
    try:
        # three spans of 100 ms: the median is robust against one span disturbed by a busy host
        rates = []
        for _ in range(3):
            n0, c0 = sample(rdtsc)
            time.sleep(0.1)
            n1, c1 = sample(rdtsc)
            rates.append((c1 - c0) * 1_000_000 / (n1 - n0))
        khz = sorted(rates)[1]
    finally:
        del rdtsc
        page.close()
    if not 100_000 <= khz <= 10_000_000:
        print(f"host-tsc-khz: implausible TSC frequency {khz:.0f} kHz", file=sys.stderr)
        return 1
    print(round(khz))
    return 0


if __name__ == "__main__":
    sys.exit(main())
