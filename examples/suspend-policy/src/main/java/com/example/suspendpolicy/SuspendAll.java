package com.example.suspendpolicy;

import java.util.ArrayList;
import java.util.List;

import org.vdpactl.mgmt.VdpaDevInfo;
import org.vdpactl.mgmt.VdpaNetlink;
import org.vdpactl.sys.SyscallException;
import org.vdpactl.sys.Syscalls;
import org.vdpactl.vhost.VhostDeviceNodes;
import org.vdpactl.vhost.VhostVdpaDevice;

/**
 * A small control-plane policy of the kind a vdpactl user writes: suspend every device of one management
 * device, all or nothing. If one device refuses, the ones already suspended are resumed, so the caller never
 * leaves a management device half stopped; where the kernel has no RESUME (Linux 6.1), that is reported.
 */
public final class SuspendAll {
    /** What happened to one device. */
    public enum Outcome { SUSPENDED, FAILED, ROLLED_BACK, LEFT_SUSPENDED }

    /** One device's result: its name, the outcome and the errno symbol of a failure (or null). */
    public record Result(String device, Outcome outcome, String error) {
    }

    private final Syscalls sys;

    public SuspendAll(Syscalls sys) {
        this.sys = sys;
    }

    /** A device this run suspended, by its vdpa name. */
    private record Held(String name, VhostVdpaDevice dev) {
    }

    /** Suspends every device of {@code mgmtdev} ("pci/0000:08:00.2", "vdpasim_net"), in name order. */
    public List<Result> suspend(String mgmtdev) {
        // snippet first-program (docs/library.md shows the lines up to "end snippet": ExampleSnippetsTest)
        List<String> names;
        try (VdpaNetlink vdpa = VdpaNetlink.open(sys)) { // the vdpa generic-netlink family
            names = vdpa.devices().stream().filter(d -> d.mgmtHandle().equals(mgmtdev)).map(VdpaDevInfo::name).sorted().toList();
        }
        List<Held> held = new ArrayList<>();
        try {
            for (String name : names) {
                VhostVdpaDevice dev = VhostVdpaDevice.open(sys, VhostDeviceNodes.resolve(sys, name).path());
                try {
                    dev.suspend(); // VHOST_VDPA_SUSPEND
                    held.add(new Held(name, dev));
                } catch (SyscallException e) {
                    dev.close();
                    List<Result> out = rollBack(held);
                    out.add(new Result(name, Outcome.FAILED, e.errnoName()));
                    return out;
                }
            }
            return held.stream().map(h -> new Result(h.name(), Outcome.SUSPENDED, null)).toList();
        } finally {
            held.forEach(h -> h.dev().close());
        }
        // end snippet
    }

    private static List<Result> rollBack(List<Held> held) {
        List<Result> out = new ArrayList<>();
        for (Held h : held) {
            try {
                h.dev().resume();
                out.add(new Result(h.name(), Outcome.ROLLED_BACK, null));
            } catch (SyscallException e) {
                out.add(new Result(h.name(), Outcome.LEFT_SUSPENDED, e.errnoName()));
            }
        }
        return out;
    }
}
