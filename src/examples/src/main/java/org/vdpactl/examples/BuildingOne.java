package org.vdpactl.examples;

import java.nio.file.Path;
import org.vdpactl.fake.FakeKernel;
import org.vdpactl.fake.FakeProcess;
import org.vdpactl.fake.fault.FaultRules;
import org.vdpactl.time.VirtualClock;

/** docs/fake-kernel.md's "Building one": a fake kernel put together from the fake's exported packages only. */
public final class BuildingOne {
    private BuildingOne() {
    }

    /** Builds the documented kernel with the fault rules of {@code file}; the caller closes it. */
    public static FakeKernel build(Path file) {
        // snippet building-one
        FakeKernel k = FakeKernel.builder()          // virtual clock, built-in profiles, default inventory
                .kernel("6.12")                       // "6.1", "6.12", "7.2" or an alias
                .clock(new VirtualClock())
                .faults(FaultRules.load(file))        // optional
                .vdpaNetlink()                        // AF_NETLINK/NETLINK_GENERIC sockets with the vdpa family
                .build();
        try (FakeProcess p = k.newProcess()) {        // a process: fds from 3, its own identity ("mm")
            int fd = p.open("/dev/vhost-vdpa-0", 2 /* O_RDWR */);
            p.close(fd);
        }
        // end snippet
        return k;
    }
}
