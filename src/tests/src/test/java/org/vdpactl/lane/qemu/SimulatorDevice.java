package org.vdpactl.lane.qemu;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** A vdpasim_net device made with iproute2's `vdpa dev add` for one test, deleted on close (if still there). */
public final class SimulatorDevice implements AutoCloseable {
    private final String name;
    private final String node;

    private SimulatorDevice(String name, String node) {
        this.name = name;
        this.node = node;
    }

    public static SimulatorDevice add(String name, String mac) throws IOException, InterruptedException {
        vdpa("dev", "add", "name", name, "mgmtdev", "vdpasim_net", "mac", mac);
        return created(name);
    }

    /** A device something else created (vdpactl's own `dev add`): waits for its node; deleted on close as the others. */
    public static SimulatorDevice created(String name) throws IOException, InterruptedException {
        Path dir = Path.of("/sys/bus/vdpa/devices", name);
        for (int i = 0; i < 100; i++) {
            try (Stream<Path> s = Files.list(dir)) {
                var n = s.map(p -> p.getFileName().toString()).filter(f -> f.startsWith("vhost-vdpa-")).findFirst();
                if (n.isPresent() && Files.exists(Path.of("/dev", n.get()))) {
                    return new SimulatorDevice(name, "/dev/" + n.get());
                }
            }
            Thread.sleep(50);
        }
        throw new IOException(name + ": no /dev/vhost-vdpa-N appeared");
    }

    static String vdpa(String... args) throws IOException, InterruptedException {
        String[] cmd = new String[args.length + 1];
        cmd[0] = "vdpa";
        System.arraycopy(args, 0, cmd, 1, args.length);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException(String.join(" ", cmd) + " failed: " + out.strip());
        }
        return out;
    }

    public String name() {
        return name;
    }

    public String node() {
        return node;
    }

    /** Deletes the device unless a test deleted it already. */
    @Override
    public void close() throws IOException {
        if (!Files.exists(Path.of("/sys/bus/vdpa/devices", name))) {
            return;
        }
        try {
            vdpa("dev", "del", name);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
