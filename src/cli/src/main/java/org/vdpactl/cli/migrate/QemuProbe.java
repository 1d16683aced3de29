package org.vdpactl.cli.migrate;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The QEMU installed on this host: the first of the usual binaries on PATH (or /usr/libexec/qemu-kvm),
 * asked for {@code --version}. Asking starts no VM and touches no device.
 */
final class QemuProbe {
    private static final List<String> NAMES = List.of("qemu-system-x86_64", "qemu-system-aarch64", "qemu-kvm");
    private static final Pattern VERSION = Pattern.compile("QEMU emulator version (\\d+\\.\\d+(?:\\.\\d+)?)");

    private QemuProbe() {
    }

    static MigrationFacts.Qemu probe() {
        for (Path p : candidates()) {
            if (Files.isExecutable(p)) {
                String version = version(p);
                if (version != null) {
                    return new MigrationFacts.Qemu(version, "probed " + p.getFileName());
                }
            }
        }
        return new MigrationFacts.Qemu(null, "not found");
    }

    private static List<Path> candidates() {
        List<Path> out = new ArrayList<>();
        String path = System.getenv("PATH");
        for (String dir : (path == null ? "" : path).split(":")) {
            if (!dir.isEmpty()) {
                for (String n : NAMES) {
                    out.add(Path.of(dir, n));
                }
            }
        }
        out.add(Path.of("/usr/libexec/qemu-kvm"));
        return out;
    }

    private static String version(Path binary) {
        Process proc = null;
        try {
            proc = new ProcessBuilder(binary.toString(), "--version").redirectErrorStream(true)
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
            String out;
            try (var in = proc.getInputStream()) {
                out = new String(in.readNBytes(4096), StandardCharsets.UTF_8);
            }
            if (!proc.waitFor(5, TimeUnit.SECONDS)) {
                return null;
            }
            Matcher m = VERSION.matcher(out);
            return m.find() ? m.group(1) : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        } finally {
            if (proc != null && proc.isAlive()) {
                proc.destroyForcibly();
            }
        }
    }
}
