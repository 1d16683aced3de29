package org.vdpactl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.vdpactl.sys.Errno;
import org.vdpactl.sys.SyscallException;
import org.vdpactl.sys.VdpactlException;
import org.vdpactl.vhost.VhostNodeException;

/**
 * The error model a caller catches (issue 32 item 12): every exception the library modules' exported packages
 * declare is a {@link VdpactlException}, one root to catch, with the kernel's errno where one is behind the
 * failure; the checked I/O exceptions of file reads stay {@link IOException}s. Classes only the library itself
 * uses are not public.
 */
class LibraryErrorModelTest {
    private static final Path ROOT = RepositoryRoot.find();
    private static final List<String> LIBRARIES = List.of("abi", "client", "orchestra", "fake", "testkit", "report");

    @Test
    void everyExceptionOfAnExportedPackageIsAVdpactlException() throws Exception {
        List<String> checked = new ArrayList<>();
        List<String> outside = new ArrayList<>();
        for (String module : LIBRARIES) {
            Path src = ROOT.resolve("src/" + module + "/src/main/java");
            Matcher export = Pattern.compile("(?m)^\\s*exports ([\\w.]+);").matcher(Files.readString(src.resolve("module-info.java")));
            while (export.find()) {
                Path dir = src.resolve(export.group(1).replace('.', '/'));
                try (Stream<Path> files = Files.list(dir)) {
                    for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                        Class<?> top = Class.forName(export.group(1) + "." + f.getFileName().toString().replace(".java", ""));
                        for (Class<?> c : withNested(top)) {
                            if (Modifier.isPublic(c.getModifiers()) && Throwable.class.isAssignableFrom(c)) {
                                checked.add(c.getName());
                                if (!VdpactlException.class.isAssignableFrom(c) && !IOException.class.isAssignableFrom(c)) {
                                    outside.add(c.getName() + " extends " + c.getSuperclass().getName());
                                }
                            }
                        }
                    }
                }
            }
        }
        assertTrue(checked.size() >= 10, "the exceptions found: " + checked);
        assertEquals(List.of(), outside, "public exceptions that a catch of VdpactlException would miss");
    }

    @Test
    void theErrnoIsKeptWhereThereIsOne() {
        assertEquals(OptionalInt.of(Errno.EBUSY), new SyscallException("open /dev/vhost-vdpa-0", Errno.EBUSY).kernelErrno());
        assertEquals(OptionalInt.of(Errno.EACCES), new VhostNodeException("/dev/x", VhostNodeException.Reason.STAT_FAILED, Errno.EACCES, "stat failed")
                .kernelErrno());
        assertEquals(OptionalInt.empty(), new VhostNodeException("vdpa9", VhostNodeException.Reason.MISSING, 0, "no such device").kernelErrno());
    }

    @Test
    void classesOnlyTheLibraryUsesAreNotPublic() throws ClassNotFoundException {
        for (String name : List.of("org.vdpactl.vhost.Ioc", "org.vdpactl.vhost.VhostErrorHints", "org.vdpactl.vhost.ConfigFields")) {
            assertFalse(Modifier.isPublic(Class.forName(name).getModifiers()), name + " is API");
        }
    }

    private static List<Class<?>> withNested(Class<?> top) {
        List<Class<?>> out = new ArrayList<>(List.of(top));
        for (int i = 0; i < out.size(); i++) {
            out.addAll(List.of(out.get(i).getDeclaredClasses()));
        }
        return out;
    }
}
