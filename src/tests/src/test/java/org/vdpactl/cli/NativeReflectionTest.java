package org.vdpactl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.vdpactl.testsupport.SeparateJvm;

/**
 * The vdpactl process calls methods and constructors reflectively through the JDK's native accessors ({@link Main#NATIVE_REFLECTION}): the method-handle
 * accessors JEP 416 made the default spin lambda forms per reflected member at run time, which `fake dev list`'s reading
 * of its profiles and state into records paid at every start-up. Seen in the process itself, by the accessor classes the JVM loads.
 */
class NativeReflectionTest {
    @Test
    void fakeDevListCallsThroughTheNativeAccessor(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("classes.log");
        Process p = SeparateJvm.start(Main.class, Map.of("JAVA_TOOL_OPTIONS", "-Xlog:class+load:file=" + log),
                dir.resolve("out"), dir.resolve("err"), "--backend", "fake", "--fake-state", dir.resolve("state.json").toString(),
                "dev", "list");
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "vdpactl dev list did not end");
        assertEquals(0, p.exitValue(), Files.readString(dir.resolve("err")));
        List<String> classes = Files.readAllLines(log);
        assertTrue(classes.stream().anyMatch(l -> l.contains("org.vdpactl.abi.json.RecordJson ")),
                "the command did not bind JSON at all, so this test would show nothing");
        // methods and constructors (records' canonical constructors, which the profiles' and state's reader calls) go
        // through the JNI accessor, which the JDK loads only when the property is set; fields go through method
        // handles either way (JDK 25)
        assertTrue(classes.stream().anyMatch(l -> l.contains("jdk.internal.reflect.DirectMethodHandleAccessor$NativeAccessor ")),
                "no native reflection accessor loaded: reflection spun method handles");
    }
}
