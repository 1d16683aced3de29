package org.vdpactl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.vdpactl.testsupport.SeparateJvm;

/**
 * Names are bytes to the kernel: vdpactl passes the bytes the user gave or refuses them (exit 2),
 * whatever the locale, and its length limit counts UTF-8 bytes as the kernel does.
 */
class NameBytesTest {
    @TempDir
    Path dir;

    private Path state() {
        return dir.resolve("state.json");
    }

    /** The device names in the state file, read as the UTF-8 bytes it holds. */
    private List<String> namesInState() throws Exception {
        var doc = new ObjectMapper().readTree(Files.readString(state(), StandardCharsets.UTF_8));
        return doc.findValuesAsText("name");
    }

    @ParameterizedTest
    @ValueSource(strings = {"C", "C.UTF-8"})
    void aNonAsciiNameReachesTheKernelAsTheBytesGivenInEveryLocale(String locale) throws Exception {
        Path out = dir.resolve("out");
        Path err = dir.resolve("err");
        Process p = SeparateJvm.start(Main.class, Map.of("LC_ALL", locale, "LANG", locale), out, err,
                "--backend", "fake", "--fake-state", state().toString(), "dev", "add", "ñamé", "--mgmtdev", "vdpasim_net");
        assertTrue(p.waitFor(5, TimeUnit.MINUTES));
        assertEquals(0, p.exitValue(), Files.readString(err));
        assertTrue(namesInState().contains("ñamé"), namesInState().toString());
    }

    @Test
    void bytesThatAreNotUtf8AreRefusedNotReplaced() throws Exception {
        Path out = dir.resolve("out");
        Path err = dir.resolve("err");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        // the shell passes the raw byte 0xff, which no Java String can carry through ProcessBuilder
        Process p = new ProcessBuilder("sh", "-c", "exec \"$0\" --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow"
                + " -XX:TieredStopAtLevel=1 -cp \"$1\" org.vdpactl.cli.Main --backend fake --fake-state \"$2\" dev add \"$(printf 'a\\377b')\""
                + " --mgmtdev vdpasim_net", java, System.getProperty("java.class.path"), state().toString())
                .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        assertTrue(p.waitFor(5, TimeUnit.MINUTES));
        assertEquals(ExitCode.USAGE.code(), p.exitValue(), Files.readString(err));
        assertTrue(Files.readString(err).contains("is not valid UTF-8 (bytes 61 ff 62)"), Files.readString(err));
        assertTrue(!Files.exists(state()) || namesInState().stream().noneMatch(n -> n.startsWith("a") && n.endsWith("b")));
    }

    @Test
    void theLengthLimitCountsUtf8Bytes() throws Exception {
        CliRun tooLong = CliRun.onFake(state(), "dev", "add", "€".repeat(100), "--mgmtdev", "vdpasim_net");
        assertEquals(ExitCode.USAGE.code(), tooLong.exitCode(), tooLong.err());
        assertTrue(tooLong.err().contains("must be 1 to 255 bytes (it has 300)"), tooLong.err());
        CliRun fits = CliRun.onFake(state(), "dev", "add", "€".repeat(85), "--mgmtdev", "vdpasim_net");
        assertEquals(0, fits.exitCode(), fits.err());
        assertTrue(namesInState().contains("€".repeat(85)));
    }

    @Test
    void aNameHoldingTheReplacementCharacterIsRefusedInProcess() {
        CliRun r = CliRun.onFake(state(), "dev", "add", "\uFFFD\uFFFDam\uFFFD\uFFFD", "--mgmtdev", "vdpasim_net");
        assertEquals(ExitCode.USAGE.code(), r.exitCode(), r.err());
        assertTrue(r.err().contains("contains U+FFFD"), r.err());
    }
}
