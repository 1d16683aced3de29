package org.vdpactl.fake.vfs;

import java.lang.foreign.MemorySegment;

import org.vdpactl.fake.mem.HostReservation;

/**
 * What a file's mmap op hands back to the process: the memory and the properties the process
 * records in its fake VMA.
 *
 * @param reservation the host memory (one reference is transferred to the VMA)
 * @param offsetInReservation where the mapping starts inside the reservation
 * @param length      mapping length (page multiple)
 * @param file        identity of the backing file (null for anonymous private memory)
 * @param shared      MAP_SHARED
 * @param io          VM_IO/VM_PFNMAP memory (a doorbell page): never IOTLB-mappable
 */
public record FakeMapping(HostReservation reservation, long offsetInReservation, long length, Object file,
                          boolean shared, boolean io) {

    /** The memory this mapping covers. */
    public MemorySegment memory() {
        return reservation.segment().asSlice(offsetInReservation, length);
    }
}
