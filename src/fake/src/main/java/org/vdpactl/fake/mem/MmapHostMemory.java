package org.vdpactl.fake.mem;

import org.vdpactl.ffi.gen.libc.libc_h;
import org.vdpactl.sys.Syscalls;

/** {@link HostMemory} from the host kernel's mmap and memfds: lazily backed, so unused gigabytes cost nothing. */
public final class MmapHostMemory implements HostMemory {
    private final Syscalls host;

    public MmapHostMemory(Syscalls host) {
        this.host = host;
    }

    @Override
    public HostReservation reserve(long bytes) {
        var segment = host.mmap(bytes, libc_h.PROT_READ() | libc_h.PROT_WRITE(),
                libc_h.MAP_PRIVATE() | libc_h.MAP_ANONYMOUS() | libc_h.MAP_NORESERVE(), -1, 0);
        return new HostReservation(segment, () -> host.munmap(segment));
    }

    /** A real host memfd: mappings before and after a growth share pages. */
    @Override
    public HostFile createFile(String name) {
        return new MemfdHostFile(host, name);
    }
}
