package org.vdpactl.fake;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.StringWriter;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.vdpactl.RepositoryRoot;

/**
 * docs/fake-kernel.md's "Building one" as a user meets it (issue 32 item 9): compiled into a named module that
 * requires org.vdpactl.fake, on the module path, importing only the packages the fake and the ABI export to
 * everyone. Before, it named Inventory, DriverModelFactory and FakeNetlink: "package org.vdpactl.fake.device is
 * not visible".
 */
class FakeKernelBuildingOneTest {
    /** The modules the fake needs at compile time (its own and those it requires). */
    private static final Set<String> MODULES = Set.of("org.vdpactl.abi", "org.vdpactl.fake", "org.slf4j",
            "com.fasterxml.jackson.databind", "com.fasterxml.jackson.core", "com.fasterxml.jackson.annotation",
            "org.jnrproject.constants");

    @Test
    void theDocumentedBuildCompilesOnTheModulePathThroughExportedPackagesOnly(@TempDir Path tmp) throws IOException {
        String md = Files.readString(RepositoryRoot.find().resolve("docs/fake-kernel.md"));
        Matcher m = Pattern.compile("<!-- fake-kernel-building-one -->\\s*```java\\n(.*?)```", Pattern.DOTALL).matcher(md);
        assertTrue(m.find(), "the snippet of \"Building one\"");
        Path src = tmp.resolve("src/user.app");
        Files.createDirectories(src.resolve("user/app"));
        Files.writeString(src.resolve("module-info.java"), "module user.app { requires org.vdpactl.fake; }\n");
        Files.writeString(src.resolve("user/app/Snippet.java"), """
                package user.app;

                import java.nio.file.Path;
                import org.vdpactl.fake.*;
                import org.vdpactl.fake.fault.*;
                import org.vdpactl.time.*;

                class Snippet {
                    static void run(Path file) {
                %s
                    }
                }
                """.formatted(m.group(1)));

        List<String> modulePath = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            Path p = Path.of(entry);
            if (!Files.exists(p) || (Files.isDirectory(p) && !Files.exists(p.resolve("module-info.class")))) {
                continue;
            }
            try {
                for (ModuleReference r : ModuleFinder.of(p).findAll()) {
                    if (MODULES.contains(r.descriptor().name())) {
                        modulePath.add(entry);
                    }
                }
            } catch (RuntimeException notAModule) {
                // a jar that cannot be a module: not one the fake needs
            }
        }
        assertEquals(MODULES.size(), modulePath.size(), "the fake's modules on the class path: " + modulePath);

        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        StringWriter out = new StringWriter();
        List<String> args = new ArrayList<>(List.of("-d", tmp.resolve("out").toString(), "--module-path",
                String.join(File.pathSeparator, modulePath), "--module-source-path", tmp.resolve("src").toString(),
                "--module", "user.app", "-proc:none"));
        boolean ok = javac.getTask(out, null, null, args, null, null).call();
        assertTrue(ok, "javac on the module path:\n" + out);
    }
}
