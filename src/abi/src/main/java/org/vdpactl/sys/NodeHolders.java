package org.vdpactl.sys;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Who holds a file open, found the way fuser(1) does: every /proc/PID/fd/N link that points to it.
 * A vhost-vdpa node has one opener at most, so an EBUSY open can name the process (QEMU, another
 * vdpactl) instead of leaving the operator to guess. Other users' processes are visible only to
 * root; a process that exits during the scan is skipped.
 */
public final class NodeHolders {
    private NodeHolders() {
    }

    /** "pid 1234 (qemu-system-x86_64)" for every process holding {@code node} open under {@code proc}. */
    public static List<String> of(Path proc, Path node) {
        List<String> holders = new ArrayList<>();
        try (var pids = Files.list(proc)) {
            for (Path p : (Iterable<Path>) pids::iterator) {
                String pid = p.getFileName().toString();
                if (pid.isEmpty() || !pid.chars().allMatch(Character::isDigit)) {
                    continue;
                }
                try (var fds = Files.list(p.resolve("fd"))) {
                    for (Path fd : (Iterable<Path>) fds::iterator) {
                        if (node.equals(Files.readSymbolicLink(fd))) {
                            holders.add(describe(proc, Long.parseLong(pid)));
                            break;
                        }
                    }
                } catch (IOException | SecurityException | NumberFormatException e) {
                    // the process exited, or is not ours to see
                }
            }
        } catch (IOException e) {
            return holders;
        }
        return holders;
    }

    /** "pid N (command)": the program name from argv[0] (comm is cut at 15 characters), else comm. */
    public static String describe(Path proc, long pid) {
        String command = "";
        try {
            byte[] cmdline = Files.readAllBytes(proc.resolve(Long.toString(pid)).resolve("cmdline"));
            int end = 0;
            while (end < cmdline.length && cmdline[end] != 0) {
                end++;
            }
            String argv0 = new String(cmdline, 0, end, StandardCharsets.UTF_8);
            command = argv0.substring(argv0.lastIndexOf('/') + 1);
            if (command.isEmpty()) {
                command = Files.readString(proc.resolve(Long.toString(pid)).resolve("comm"), StandardCharsets.UTF_8).strip();
            }
        } catch (IOException | SecurityException e) {
            // gone or not ours to see: the pid alone
        }
        return "pid " + pid + (command.isEmpty() ? "" : " (" + command + ")");
    }

    /** {@link #describe(Path, long)} on this host's /proc. */
    public static String describe(long pid) {
        return describe(Path.of("/proc"), pid);
    }
}
