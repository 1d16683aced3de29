package org.vdpactl.packaging;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.vdpactl.cli.CompletionScript;
import org.vdpactl.cli.Main;
import picocli.CommandLine;

/**
 * The {@code package}-phase step of the build (run by exec-maven-plugin after the shaded jar exists):
 * <ol>
 *   <li>modernises picocli's class files inside the shaded jar ({@link ClassFileModernizer});</li>
 *   <li>writes the bash/zsh completion script ({@code OUT/completion/vdpactl}, picocli's AutoComplete);</li>
 *   <li>writes the man pages ({@code OUT/man/man1/*.1}, {@link ManPages});</li>
 *   <li>trains the start-up archive next to the jar: {@code vdpactl.aot} (JDK 25+, AOT cache) or
 *       {@code vdpactl.jsa} (JDK 22-24, dynamic CDS); scripts/vdpactl uses whichever exists. On JDK 25+ a second
 *       cache, {@code vdpactl-kernel.aot}, is trained on the command lines that do not use the fake backend
 *       ({@link AotTraining#kernelLines}; scripts/lib/aot-cache.sh gives it to a command on the kernel). Beside an AOT cache,
 *       {@code vdpactl.aot.jdk} names the JDK that trained it ({@link #jdkIdentity}): the release ships both, and
 *       its launcher uses the cache only on that very JDK (the JVM refuses a cache of any other build).</li>
 * </ol>
 * Usage: {@code ReleaseFiles --jar JAR --out DIR --version V --date YYYY-MM-DD [--java JAVA]
 * [--jvm-flag FLAG]... [--skip-archive[=true|false]]}. The {@code --jvm-flag}s must be the launcher's own, since an
 * archive is only used by a JVM started with compatible flags.
 */
public final class ReleaseFiles {
    private ReleaseFiles() {
    }

    /** The CLI's command tree, the one source of every file written here. */
    static CommandLine commandTree() {
        return Main.commandLine();
    }

    /** The bash completion script for the CLI; zsh sources the same file (it sets up bashcompinit itself). */
    public static String completionScript() {
        return CompletionScript.bash(commandTree());
    }

    public static void main(String[] args) throws Exception {
        Path jar = null;
        Path out = null;
        String version = "dev";
        String date = "1970-01-01";
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> jvmFlags = new ArrayList<>();
        boolean archive = true;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--jar" -> jar = Path.of(args[++i]);
                case "--out" -> out = Path.of(args[++i]);
                case "--version" -> version = args[++i];
                case "--date" -> date = args[++i];
                case "--java" -> java = args[++i];
                case "--jvm-flag" -> jvmFlags.add(args[++i]);
                case "--skip-archive", "--skip-archive=true" -> archive = false;
                case "--skip-archive=false" -> archive = true;
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        if (jar == null || out == null) {
            throw new IllegalArgumentException("--jar and --out are required");
        }
        ClassFileModernizer.Result r = ClassFileModernizer.modernizeJar(jar, name -> name.startsWith("picocli/"));
        say("picocli class files modernised: " + r.rewritten() + " rewritten, " + r.keptWithJsr()
                + " kept (jsr/ret), " + r.alreadyModern() + " already modern");
        writeCompletion(out.resolve("completion"));
        writeManPages(out.resolve("man").resolve("man1"), version, date);
        Path dir = jar.toAbsolutePath().getParent();
        Files.deleteIfExists(dir.resolve("vdpactl.aot"));
        Files.deleteIfExists(dir.resolve(KERNEL_AOT));
        Files.deleteIfExists(dir.resolve(AOT_JDK));
        Files.deleteIfExists(dir.resolve("vdpactl.jsa"));
        if (archive) {
            trainArchive(java, jvmFlags, jar.toAbsolutePath(), dir, out.resolve("aot-training"));
        } else {
            say("start-up archive skipped (--skip-archive)");
        }
    }

    /** The AOT cache of the command lines on the kernel backend (scripts/lib/aot-cache.sh). */
    static final String KERNEL_AOT = "vdpactl-kernel.aot";

    /** Beside the AOT cache: the {@link #jdkIdentity} of the JDK that trained it. */
    static final String AOT_JDK = "vdpactl.aot.jdk";

    /**
     * Who a JDK is, as its {@code release} file says: the IMPLEMENTOR and JAVA_RUNTIME_VERSION lines, in the
     * file's order. The release launcher reads the same lines of the JDK it found and compares the text.
     */
    static String jdkIdentity(Path javaHome) throws IOException {
        StringBuilder id = new StringBuilder();
        for (String line : Files.readAllLines(javaHome.resolve("release"), StandardCharsets.UTF_8)) {
            if (line.startsWith("IMPLEMENTOR=") || line.startsWith("JAVA_RUNTIME_VERSION=")) {
                id.append(line).append('\n');
            }
        }
        return id.toString();
    }

    private static void writeCompletion(Path dir) throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("vdpactl"), completionScript(), StandardCharsets.UTF_8);
        say("completion script: " + dir.resolve("vdpactl"));
    }

    private static void writeManPages(Path dir, String version, String date) throws IOException {
        Files.createDirectories(dir);
        Map<String, String> pages = new ManPages(version, date).render(commandTree());
        for (Map.Entry<String, String> p : pages.entrySet()) {
            Files.writeString(dir.resolve(p.getKey()), p.getValue(), StandardCharsets.UTF_8);
        }
        say("man pages: " + pages.size() + " in " + dir);
    }

    /**
     * What an AOT cache is trained without: the method profiles JDK 25 records into it by default (JEP 515, for the C2
     * compiler). The launchers run C1 only, and a JVM replays the profiles a cache holds when it starts: with them
     * every command cost more CPU (measured start to exit beside the JVM hello). A diagnostic flag, needed by the
     * training JVM only: a cache without profiles is used by any JVM, no flag needed.
     */
    static final List<String> NO_PROFILES = List.of("-XX:+UnlockDiagnosticVMOptions", "-XX:-AOTRecordTraining");

    /** The JVM flags that write the archive for a JDK of feature version {@code feature}. */
    static List<String> archiveFlags(int feature, Path dir) {
        return feature >= 25 ? aotCacheFlags(dir.resolve("vdpactl.aot")) : List.of("-XX:ArchiveClassesAtExit=" + dir.resolve("vdpactl.jsa"));
    }

    /**
     * The module option an AOT cache is trained with, as the launchers run with a cache (scripts/lib/aot-cache.sh,
     * {@code vdpactl_main_args}: the jar's main class on the class path, not {@code -jar}, which read the jar twice at
     * every start). The JVM refuses a cache whose module options differ from its training's, and the manifest's
     * Enable-Native-Access, which only a {@code -jar} run reads, is not the option. Not for the CDS archive of a JDK
     * before 25: the launchers run it with {@code -jar}.
     */
    static final String NATIVE_ACCESS = "--enable-native-access=ALL-UNNAMED";

    /** JDK 25+: the JVM flags that train the AOT cache {@code aot} (the output flag last). */
    static List<String> aotCacheFlags(Path aot) {
        List<String> flags = new ArrayList<>(NO_PROFILES);
        flags.add(NATIVE_ACCESS);
        flags.add("-XX:AOTCacheOutput=" + aot);
        return flags;
    }

    private static void trainArchive(String java, List<String> jvmFlags, Path jar, Path dir, Path work) throws Exception {
        Files.createDirectories(work);
        List<String[]> lines = AotTraining.commandLines(commandTree(), work.resolve("fake-state.json"));
        Path written = train(java, jvmFlags, archiveFlags(Runtime.version().feature(), dir), jar, lines, work, "training");
        if (written.getFileName().toString().equals("vdpactl.aot")) {
            Path javaHome = Path.of(java).toAbsolutePath().getParent().getParent();
            Files.writeString(dir.resolve(AOT_JDK), jdkIdentity(javaHome), StandardCharsets.UTF_8);
            train(java, jvmFlags, aotCacheFlags(dir.resolve(KERNEL_AOT)), jar, AotTraining.kernelLines(lines), work, "kernel-training");
        }
    }

    /** One training run writing the archive its {@code outputFlags} name; returns the archive written. */
    private static Path train(String java, List<String> jvmFlags, List<String> outputFlags, Path jar, List<String[]> lines,
            Path work, String name) throws Exception {
        Path batch = work.resolve(name + ".batch");
        Files.writeString(batch, AotTraining.batchFile(lines), StandardCharsets.UTF_8);
        List<String> cmd = trainingCommand(java, jvmFlags, outputFlags, jar, batch);
        Path log = work.resolve(name + ".log");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!p.waitFor(5, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new IOException("start-up archive training timed out; see " + log);
        }
        // a failing command is still training (--force); a jar whose classes do not link is a broken build
        String out = Files.readString(log, StandardCharsets.UTF_8);
        if (out.contains("LinkageError") || out.contains("NoClassDefFoundError") || out.contains("VerifyError")) {
            throw new IOException("the jar does not link in the training run; see " + log);
        }
        String output = outputFlags.getLast();
        Path written = Path.of(output.substring(output.indexOf('=') + 1));
        if (!Files.exists(written)) {
            throw new IOException("the training run wrote no archive (exit " + p.exitValue() + "); see " + log);
        }
        say("start-up archive: " + written + " (" + Files.size(written) / 1024 + " KiB), training log " + log);
        return written;
    }

    /**
     * The training JVM's command line: the CLI runs {@code batch} from {@code jar}'s main class on the class path, as
     * the launchers run it with a cache; the module options are the output flags' ({@link #NATIVE_ACCESS}).
     */
    static List<String> trainingCommand(String java, List<String> jvmFlags, List<String> outputFlags, Path jar, Path batch) {
        List<String> cmd = new ArrayList<>();
        cmd.add(java);
        cmd.addAll(jvmFlags);
        cmd.addAll(outputFlags);
        cmd.addAll(List.of("-cp", jar.toString(), Main.class.getName(), "--batch", batch.toString(), "--force"));
        return cmd;
    }

    private static void say(String line) {
        System.out.println("[vdpactl release] " + line);
    }
}
