package org.vdpactl.fake.mem;

import java.util.Objects;
import org.vdpactl.ffi.gen.libc.libc_h;
import org.vdpactl.sys.PanamaSyscalls;
import org.vdpactl.sys.Syscalls;

/** {@link HostMemory} from the host kernel's mmap and memfds: lazily backed, so unused gigabytes cost nothing. */
public final class MmapHostMemory implements HostMemory {
    /** The seam given, or null for this process's own kernel ({@link HostSeam}). */
    private final Syscalls given;

    public MmapHostMemory(Syscalls host) {
        this.given = Objects.requireNonNull(host);
    }

    private MmapHostMemory() {
        this.given = null;
    }

    /**
     * This process's own kernel, its seam made on the first mapping or memfd: every fake kernel has host memory, and
     * a command that maps nothing (a listing) then never starts FFM's linker for it (start-up).
     */
    static MmapHostMemory ofThisProcess() {
        return new MmapHostMemory();
    }

    /** The Panama seam of this process, made when a fake kernel first maps or creates a memfd. */
    private static final class HostSeam {
        static final Syscalls SYSCALLS = new PanamaSyscalls();
    }

    private Syscalls host() {
        return given != null ? given : HostSeam.SYSCALLS;
    }

    @Override
    public HostReservation reserve(long bytes) {
        Syscalls host = host();
        var segment = host.mmap(bytes, libc_h.PROT_READ() | libc_h.PROT_WRITE(),
                libc_h.MAP_PRIVATE() | libc_h.MAP_ANONYMOUS() | libc_h.MAP_NORESERVE(), -1, 0);
        return new HostReservation(segment, () -> host.munmap(segment));
    }

    /** A real host memfd: mappings before and after a growth share pages. */
    @Override
    public HostFile createFile(String name) {
        return new MemfdHostFile(host(), name);
    }
}
