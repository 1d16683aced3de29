package org.vdpactl.lane.qemu;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One QEMU the lane compares the rehearsal with: the host's own {@code qemu-system-x86_64} (Debian
 * 12's QEMU 7.2) and, when scripts/vm-lane found it, the second QEMU it unpacked from
 * bookworm-backports (QEMU 10.0; scripts/lib/qemu-peer.sh), whose wrapper it passes as
 * {@code VDPACTL_QEMU_PEER_BIN}. {@link #series()} ("7.2", "10.0") selects the intended differences
 * that apply to this QEMU and names its records.
 *
 * @param command the program to run (a name on PATH or the wrapper's path)
 * @param version QEMU's own version line ("10.0.2 (Debian 1:10.0.2+ds-2+deb13u1~bpo12+1)")
 */
public record QemuClient(String command, String version) {
    private static final Pattern SERIES = Pattern.compile("^(\\d+)\\.(\\d+)");

    /** The host's QEMU, then the peer when VDPACTL_QEMU_PEER_BIN names one. */
    public static List<QemuClient> all() {
        List<QemuClient> out = new ArrayList<>();
        out.add(of("qemu-system-x86_64"));
        String peer = System.getenv("VDPACTL_QEMU_PEER_BIN");
        if (peer != null && !peer.isBlank()) {
            out.add(of(peer));
        }
        return out;
    }

    /** The host's QEMU. */
    public static QemuClient host() {
        return of("qemu-system-x86_64");
    }

    static QemuClient of(String command) {
        try {
            Process p = new ProcessBuilder(command, "--version").redirectErrorStream(true).start();
            String v = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().findFirst().orElse("?");
            p.waitFor();
            return new QemuClient(command, v.replace("QEMU emulator version ", ""));
        } catch (IOException e) {
            throw new IllegalStateException(command + " --version: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(command + " --version interrupted", e);
        }
    }

    /** "7.2", "10.0": major.minor of the version. */
    public String series() {
        Matcher m = SERIES.matcher(version);
        if (!m.find()) {
            throw new IllegalStateException("no QEMU version in '" + version + "' (" + command + ")");
        }
        return m.group(1) + "." + m.group(2);
    }

    /** True from QEMU 8.1 on: it stops a device that offers VHOST_BACKEND_F_SUSPEND by VHOST_VDPA_SUSPEND. */
    public boolean suspends() {
        String[] s = series().split("\\.");
        int major = Integer.parseInt(s[0]);
        return major > 8 || (major == 8 && Integer.parseInt(s[1]) >= 1);
    }

    /**
     * The record file name for this QEMU: the host's QEMU keeps the name the lane always used
     * ("qemu-trace.json"), another QEMU's gets its series ("qemu-trace-10.0.json").
     */
    public String recordName(String base) {
        return command.equals("qemu-system-x86_64") ? base + ".json" : base + "-" + series() + ".json";
    }

    @Override
    public String toString() {
        return "QEMU " + series();
    }
}
