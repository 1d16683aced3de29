package org.vdpactl.cli.doctor;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.vdpactl.sys.EffectiveUid;

/**
 * Plain procfs and sysfs facts about the host the doctor reports on. These are questions about
 * this machine's process and kernel, not about vDPA devices, so they read /proc and /sys directly
 * rather than through the syscall seam; a question the library also asks (the effective uid,
 * RLIMIT_MEMLOCK) is answered by the library's one class for it.
 */
public class HostFacts {
    /** Linux capability numbers (linux/capability.h). */
    public static final int CAP_NET_ADMIN = 12;
    public static final int CAP_IPC_LOCK = 14;

    private final Path proc;
    private final Path sys;

    public HostFacts() {
        this(Path.of("/proc"), Path.of("/sys"));
    }

    /** For tests: read another procfs/sysfs tree. */
    public HostFacts(Path proc, Path sys) {
        this.proc = proc;
        this.sys = sys;
    }

    /** The effective uid, or -1 when procfs does not say. */
    public int euid() {
        return EffectiveUid.in(proc).orElse(-1);
    }

    /** The effective capability set of this process (CapEff of /proc/self/status). */
    public long effectiveCapabilities() {
        return statusField("CapEff").map(v -> Long.parseUnsignedLong(v.trim(), 16)).orElse(0L);
    }

    public boolean hasCapability(int cap) {
        return (effectiveCapabilities() & (1L << cap)) != 0;
    }

    private Optional<String> statusField(String name) {
        return lines(proc.resolve("self/status")).lines()
                .filter(l -> l.startsWith(name + ":"))
                .map(l -> l.substring(name.length() + 1).trim())
                .findFirst();
    }

    /** Kernel release (uname -r). */
    public String kernelRelease() {
        return lines(proc.resolve("sys/kernel/osrelease")).trim();
    }

    /** True when the module is loaded or built in (sysfs shows /sys/module/NAME for both when it has parameters or is a module). */
    public boolean modulepresent(String name) {
        return Files.isDirectory(sys.resolve("module").resolve(name));
    }

    /** A module parameter from /sys/module/NAME/parameters/PARAM. */
    public Optional<String> moduleParameter(String module, String param) {
        String v = lines(sys.resolve("module").resolve(module).resolve("parameters").resolve(param)).trim();
        return v.isEmpty() ? Optional.empty() : Optional.of(v);
    }

    /** True when /proc/devices lists a character-device driver of this name. */
    public boolean charDriverRegistered(String driver) {
        String devices = lines(proc.resolve("devices"));
        int block = devices.indexOf("Block devices:");
        String chars = block < 0 ? devices : devices.substring(0, block);
        return chars.lines().map(String::trim).anyMatch(l -> l.endsWith(" " + driver));
    }

    public boolean vdpaBusPresent() {
        return Files.isDirectory(sys.resolve("bus/vdpa"));
    }

    /** A /proc/meminfo value in kB, when present. */
    public Optional<Long> meminfo(String key) {
        return lines(proc.resolve("meminfo")).lines()
                .filter(l -> l.startsWith(key + ":"))
                .map(l -> l.substring(key.length() + 1).replace("kB", "").trim())
                .map(Long::parseLong)
                .findFirst();
    }

    private static String lines(Path p) {
        try {
            return Files.readString(p, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }
}
