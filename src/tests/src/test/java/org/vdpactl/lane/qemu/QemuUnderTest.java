package org.vdpactl.lane.qemu;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A qemu-system-x86_64 (the host's Debian 12 QEMU, or the lane's second QEMU: {@link QemuClient}) as a vhost-vdpa client with no guest OS: q35 under TCG, stopped at
 * start ({@code -S}), qtest on stdio (the test plays the guest's driver), QMP on a unix socket, and
 * a firmware image of HLT instructions so that no BIOS touches the PCI devices the test programs.
 * Guest RAM is a shared memfd: vhost-vdpa maps only shared file-backed memory for a device that
 * maps by virtual address (vdpa_sim since 6.3, vhost_vdpa_va_map). Optionally runs under strace,
 * which then records every openat/ioctl/write/close the QEMU threads make (see {@link StraceCalls}).
 */
public final class QemuUnderTest implements AutoCloseable {
    private final Process process;
    private final QtestConnection qtest;
    private final QmpConnection qmp;
    private final Path straceLog;

    private QemuUnderTest(Process process, QtestConnection qtest, QmpConnection qmp, Path straceLog) {
        this.process = process;
        this.qtest = qtest;
        this.qmp = qmp;
        this.straceLog = straceLog;
    }

    /** The netdev argument for a vhost-vdpa node, with or without shadow virtqueues. */
    public static String vhostVdpaNetdev(String node, boolean shadowVirtqueues) {
        return vhostVdpaNetdev(node, 0, shadowVirtqueues);
    }

    /** The netdev argument with id n<index>, for the index-th device of a VM with several. */
    public static String vhostVdpaNetdev(String node, int index, boolean shadowVirtqueues) {
        return "type=vhost-vdpa,vhostdev=" + node + ",id=n" + index + (shadowVirtqueues ? ",x-svq=on" : "");
    }

    /**
     * Starts QEMU in dir. netdev is the -netdev value (id n0); extra adds arguments (-incoming).
     * With strace true the whole QEMU runs under strace, its log at dir/name.strace.
     */
    public static QemuUnderTest start(Path dir, String name, String netdev, boolean strace, String... extra)
            throws IOException, InterruptedException {
        return start(QemuClient.host(), dir, name, netdev, strace, extra);
    }

    /** As {@link #start(Path, String, String, boolean, String...)}, with the given QEMU. */
    public static QemuUnderTest start(QemuClient client, Path dir, String name, String netdev, boolean strace,
            String... extra) throws IOException, InterruptedException {
        return start(client, dir, name, List.of(netdev), strace ? Tracing.STRACE : Tracing.NONE, extra);
    }

    /** How a QEMU's calls are seen: under strace, through QEMU's own trace points only (timestamped), or not at all. */
    public enum Tracing { STRACE, TRACE_POINTS, NONE }

    /**
     * QEMU with one virtio-net-pci device per netdev (netdevs.get(i) must say id=n<i>): several
     * vhost-vdpa netdevs on one VM. With TRACE_POINTS QEMU prints its vhost_vdpa_* trace points
     * with wall-clock microseconds ({@code -msg timestamp=on}) to its stderr file, dir/name.stderr.
     */
    public static QemuUnderTest start(QemuClient client, Path dir, String name, List<String> netdevs, Tracing tracing,
            String... extra) throws IOException, InterruptedException {
        return startWithDeviceOptions(client, dir, name, netdevs, tracing, "", extra);
    }

    /**
     * As {@link #start(QemuClient, Path, String, List, Tracing, String...)}, with deviceOptions appended to
     * every virtio-net-pci device (",host_mtu=9000": the guest is then offered VIRTIO_NET_F_MTU).
     */
    public static QemuUnderTest startWithDeviceOptions(QemuClient client, Path dir, String name, List<String> netdevs, Tracing tracing,
            String deviceOptions, String... extra) throws IOException, InterruptedException {
        boolean strace = tracing == Tracing.STRACE;
        Path firmware = dir.resolve("halt.bin");
        if (!Files.exists(firmware)) {
            byte[] hlt = new byte[64 * 1024];
            Arrays.fill(hlt, (byte) 0xf4); // HLT at the reset vector, and everywhere after it
            Files.write(firmware, hlt);
        }
        Path qmpSocket = dir.resolve(name + ".qmp");
        Files.deleteIfExists(qmpSocket);
        Path log = dir.resolve(name + ".strace");
        List<String> cmd = new ArrayList<>();
        if (strace) {
            // -f: vhost work runs in QEMU's main thread, but follow every thread; -X raw: numeric ioctl
            // requests (the ABI's UapiIoctl names them); -xx -s 4096: every written byte, in hex.
            cmd.addAll(List.of("strace", "-f", "-tt", "-X", "raw", "-xx", "-s", "4096", "-e",
                    "trace=openat,ioctl,write,close", "-o", log.toString()));
        }
        cmd.addAll(List.of(client.command(), "-machine", "q35,memory-backend=mem", "-accel", "tcg", "-nodefaults",
                "-display", "none", "-m", "64", "-bios", firmware.toString(),
                "-object", "memory-backend-memfd,id=mem,size=64M,share=on",
                "-qtest", "stdio", "-qtest-log", "/dev/null", "-S",
                "-qmp", "unix:" + qmpSocket + ",server=on,wait=off"));
        if (tracing == Tracing.TRACE_POINTS) {
            cmd.addAll(List.of("-msg", "timestamp=on")); // "pid@seconds.micros:" before each trace line
        }
        if (tracing != Tracing.NONE) {
            // QEMU's own vhost-vdpa trace points, written to stderr (fd 2) just before each call:
            // strace sees them in order with the ioctls and they carry the arguments strace cannot
            // decode (vq index, status byte)
            cmd.addAll(List.of("-trace", "enable=vhost_vdpa_*"));
        }
        for (int i = 0; i < netdevs.size(); i++) {
            cmd.addAll(List.of("-netdev", netdevs.get(i),
                    "-device", "virtio-net-pci,netdev=n" + i + ",disable-legacy=on,mq=on,romfile=" + deviceOptions));
        }
        cmd.addAll(List.of(extra));
        Process p = new ProcessBuilder(cmd).redirectError(dir.resolve(name + ".stderr").toFile()).start();
        try {
            QtestConnection qtest = new QtestConnection(p);
            qtest.command("readb 0x0"); // qtest answers once QEMU has finished its set-up
            return new QemuUnderTest(p, qtest, QmpConnection.connect(qmpSocket, p), log);
        } catch (IOException | RuntimeException e) {
            p.destroyForcibly();
            throw new IOException(e.getMessage() + "; QEMU's stderr: " + tail(dir.resolve(name + ".stderr")), e);
        }
    }

    static String tail(Path file) {
        try {
            List<String> lines = Files.readAllLines(file);
            return String.join(" | ", lines.subList(Math.max(0, lines.size() - 5), lines.size()));
        } catch (IOException e) {
            return "(" + e.getMessage() + ")";
        }
    }

    public QtestConnection qtest() {
        return qtest;
    }

    public QmpConnection qmp() {
        return qmp;
    }

    Path straceLog() {
        return straceLog;
    }

    public long pid() {
        return process.pid();
    }

    /** False once QEMU has exited (an incoming migration it could not load ends the destination QEMU). */
    public boolean alive() {
        return process.isAlive();
    }

    /** quit through QMP, then waits; kills QEMU if it does not exit. */
    @Override
    public void close() throws IOException {
        try {
            if (process.isAlive()) {
                try {
                    qmp.execute("quit", null);
                } catch (IOException e) {
                    // QEMU closes the monitor as it quits
                }
            }
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        } finally {
            qmp.close();
            process.getOutputStream().close();
            process.getInputStream().close();
        }
    }
}
