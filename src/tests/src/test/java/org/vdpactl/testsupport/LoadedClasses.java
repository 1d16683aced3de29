package org.vdpactl.testsupport;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The classes a vdpactl command line loads in a JVM of its own ({@code -Xlog:class+load}): what start-up pays for,
 * a count the machine's load does not change.
 *
 * @param exitCode the command's exit status
 * @param names    the loaded classes' names, in loading order
 * @param stderr   what the command wrote on stderr
 */
public record LoadedClasses(int exitCode, List<String> names, String stderr) {
    /** Runs {@code mainClass} with {@code args} in a separate JVM (files named after {@code name} in {@code dir}). */
    public static LoadedClasses of(Path dir, Class<?> mainClass, String name, String... args) throws IOException, InterruptedException {
        Path log = dir.resolve(name + ".classes");
        Process p = SeparateJvm.start(mainClass, Map.of("JAVA_TOOL_OPTIONS", "-Xlog:class+load:file=" + log),
                dir.resolve(name + ".out"), dir.resolve(name + ".err"), args);
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor();
            throw new AssertionError(name + " did not end within 120 s");
        }
        try (Stream<String> lines = Files.lines(log)) {
            // "[0.123s][info][class,load] NAME source: ..."
            List<String> names = lines.filter(l -> l.contains("[class,load]"))
                    .map(l -> l.substring(l.indexOf("] ", l.indexOf("[class,load]")) + 2).split(" ")[0]).toList();
            return new LoadedClasses(p.exitValue(), names, Files.readString(dir.resolve(name + ".err")));
        }
    }
}
