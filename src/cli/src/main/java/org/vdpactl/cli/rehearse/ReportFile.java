package org.vdpactl.cli.rehearse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.vdpactl.cli.CliFailure;
import org.vdpactl.cli.ExitCode;

/**
 * The {@code --report FILE.html} of a rehearsal. Checked before the rehearsal starts, so a typo
 * costs nothing; a write that still fails at the end (disk full, the directory removed meanwhile)
 * says why and that the results printed above are complete.
 */
public final class ReportFile {
    private final Path path;

    private ReportFile(Path path) {
        this.path = path;
    }

    /** Refuses a path the report cannot be written to, before anything is done. */
    public static ReportFile checked(Path path) {
        Path abs = path.toAbsolutePath();
        Path dir = abs.getParent();
        Path notADirectory = dir == null ? null : firstNonDirectory(dir);
        if (notADirectory != null) {
            throw new CliFailure(ExitCode.USAGE, "--report " + path + ": " + notADirectory + " is not a directory (nothing was done)");
        }
        if (dir == null || !Files.isDirectory(dir)) {
            throw new CliFailure(ExitCode.NOT_FOUND, "--report " + path + ": the directory " + dir + " does not exist (nothing was done)");
        }
        if (Files.isDirectory(abs)) {
            throw new CliFailure(ExitCode.USAGE, "--report " + path + " is a directory; give a file name like downtime.html (nothing was done)");
        }
        if (Files.exists(abs) && (!Files.isRegularFile(abs) || kernelFile(abs))) {
            throw new CliFailure(ExitCode.USAGE, "--report " + path + " is not a regular file (nothing was done)");
        }
        if (Files.exists(abs) ? !Files.isWritable(abs) : !Files.isWritable(dir)) {
            throw new CliFailure(ExitCode.PERMISSION, "--report " + path + ": Permission denied (nothing was done)");
        }
        return new ReportFile(path);
    }

    /** The first component of {@code dir} (from the root) that exists but is not a directory, or null. */
    private static Path firstNonDirectory(Path dir) {
        Path p = dir.getRoot();
        for (Path part : dir) {
            p = p.resolve(part);
            if (!Files.exists(p)) {
                return null;
            }
            if (!Files.isDirectory(p)) {
                return p;
            }
        }
        return null;
    }

    /** /proc and /sys files look regular but are the kernel's interfaces, never a report. */
    private static boolean kernelFile(Path p) {
        try {
            String type = Files.getFileStore(p).type();
            return type.equals("proc") || type.equals("sysfs");
        } catch (IOException e) {
            return false;
        }
    }

    public Path path() {
        return path;
    }

    /** Writes the report; on failure, one line with the reason, keeping the printed results valid. */
    public void write(String html) {
        try {
            Files.writeString(path, html, StandardCharsets.UTF_8);
        } catch (IOException e) {
            String reason = e instanceof FileSystemException fse && fse.getReason() != null ? fse.getReason()
                    : e instanceof NoSuchFileException ? "No such file or directory"
                    : e instanceof AccessDeniedException ? "Permission denied" : String.valueOf(e.getMessage());
            throw CliFailure.from(e, "cannot write the report " + path + ": " + reason
                    + " (the rehearsal ran; its results above are complete)");
        }
    }
}
