package org.vdpactl.packaging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Method;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import picocli.CommandLine;

class ClassFileModernizerTest {
    /** Defines the given classes itself (so the JVM verifies them with their new frames), the rest from the parent. */
    static final class Defining extends ClassLoader {
        private final Map<String, byte[]> classes;

        Defining(Map<String, byte[]> classes) {
            super(ClassFileModernizerTest.class.getClassLoader());
            this.classes = classes;
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            synchronized (getClassLoadingLock(name)) {
                byte[] b = classes.get(name);
                if (b == null) {
                    return super.loadClass(name, resolve);
                }
                Class<?> c = findLoadedClass(name);
                return c != null ? c : defineClass(name, b, 0, b.length);
            }
        }
    }

    /** A Java 5 class (no frames) with a loop and a branch: static int sumOfEvens(int n). */
    private static byte[] java5Loop() {
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        cw.visit(Opcodes.V1_5, Opcodes.ACC_PUBLIC | Opcodes.ACC_SUPER, "gen/Loop", null, "java/lang/Object", null);
        MethodVisitor mv = cw.visitMethod(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "sumOfEvens", "(I)I", null, null);
        mv.visitCode();
        Label loop = new Label();
        Label skip = new Label();
        Label done = new Label();
        mv.visitInsn(Opcodes.ICONST_0);
        mv.visitVarInsn(Opcodes.ISTORE, 1); // sum
        mv.visitInsn(Opcodes.ICONST_0);
        mv.visitVarInsn(Opcodes.ISTORE, 2); // i
        mv.visitLabel(loop);
        mv.visitVarInsn(Opcodes.ILOAD, 2);
        mv.visitVarInsn(Opcodes.ILOAD, 0);
        mv.visitJumpInsn(Opcodes.IF_ICMPGE, done);
        mv.visitVarInsn(Opcodes.ILOAD, 2);
        mv.visitInsn(Opcodes.ICONST_1);
        mv.visitInsn(Opcodes.IAND);
        mv.visitJumpInsn(Opcodes.IFNE, skip);
        mv.visitVarInsn(Opcodes.ILOAD, 1);
        mv.visitVarInsn(Opcodes.ILOAD, 2);
        mv.visitInsn(Opcodes.IADD);
        mv.visitVarInsn(Opcodes.ISTORE, 1);
        mv.visitLabel(skip);
        mv.visitIincInsn(2, 1);
        mv.visitJumpInsn(Opcodes.GOTO, loop);
        mv.visitLabel(done);
        mv.visitVarInsn(Opcodes.ILOAD, 1);
        mv.visitInsn(Opcodes.IRETURN);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
        cw.visitEnd();
        return cw.toByteArray();
    }

    @Test
    void aJava5ClassBecomesVersion52AndStillComputesTheSame() throws Exception {
        byte[] old = java5Loop();
        byte[] modern = ClassFileModernizer.modernize(old, getClass().getClassLoader());
        assertEquals(49, ClassFileModernizer.majorVersion(old));
        assertEquals(52, ClassFileModernizer.majorVersion(modern));
        Class<?> c = new Defining(Map.of("gen.Loop", modern)).loadClass("gen.Loop");
        Method m = c.getMethod("sumOfEvens", int.class);
        assertEquals(0 + 2 + 4 + 6 + 8, m.invoke(null, 10));
    }

    @Test
    void classesWithSubroutinesAndModernClassesAreLeftAlone() {
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        cw.visit(Opcodes.V1_4, Opcodes.ACC_PUBLIC, "gen/Jsr", null, "java/lang/Object", null);
        MethodVisitor mv = cw.visitMethod(Opcodes.ACC_STATIC, "f", "()V", null, null);
        mv.visitCode();
        Label sub = new Label();
        mv.visitJumpInsn(Opcodes.JSR, sub);
        mv.visitInsn(Opcodes.RETURN);
        mv.visitLabel(sub);
        mv.visitVarInsn(Opcodes.ASTORE, 0);
        mv.visitVarInsn(Opcodes.RET, 0);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
        byte[] jsr = cw.toByteArray();
        assertSame(jsr, ClassFileModernizer.modernize(jsr, getClass().getClassLoader()));
        byte[] modern = ClassFileModernizer.modernize(java5Loop(), getClass().getClassLoader());
        assertSame(modern, ClassFileModernizer.modernize(modern, getClass().getClassLoader()));
    }

    @Test
    void theRewrittenJarKeepsTheOriginalsMode(@TempDir Path tmp) throws IOException, URISyntaxException {
        Path jar = tmp.resolve("picocli.jar");
        Files.copy(Path.of(CommandLine.class.getProtectionDomain().getCodeSource().getLocation().toURI()), jar);
        Files.setPosixFilePermissions(jar, PosixFilePermissions.fromString("rw-r--r--"));
        ClassFileModernizer.modernizeJar(jar, n -> n.startsWith("picocli/"));
        assertEquals("rw-r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(jar)),
                "a jar built by root must stay readable by the users who run it");
    }

    @Test
    void everyPicocliClassStillVerifiesAndLinksAfterTheRewrite(@TempDir Path tmp) throws IOException, URISyntaxException {
        Path original = Path.of(CommandLine.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Path jar = tmp.resolve("picocli.jar");
        Files.copy(original, jar);
        ClassFileModernizer.Result r = ClassFileModernizer.modernizeJar(jar, n -> n.startsWith("picocli/"));
        assertTrue(r.rewritten() > 100, r.toString());
        Map<String, byte[]> classes = new HashMap<>();
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            Enumeration<? extends ZipEntry> entries = zip.entries();
            while (entries.hasMoreElements()) {
                ZipEntry e = entries.nextElement();
                if (e.getName().startsWith("picocli/") && e.getName().endsWith(".class")) {
                    byte[] b = ClassFileModernizer.read(zip, e);
                    assertEquals(52, ClassFileModernizer.majorVersion(b), e.getName());
                    classes.put(e.getName().replace('/', '.').replace(".class", ""), b);
                }
            }
        }
        Defining loader = new Defining(classes);
        List<String> failures = new ArrayList<>();
        for (String name : classes.keySet()) {
            try {
                // initialising links the class, and linking runs the type-checking verifier on the new frames
                Class.forName(name, true, loader);
            } catch (ClassNotFoundException | LinkageError e) {
                // every LinkageError is the rewrite's doing: VerifyError or ClassFormatError (bad frames),
                // NoSuchFieldError / NoSuchMethodError (a member lost), ExceptionInInitializerError,
                // NoClassDefFoundError; the original classes all link and initialise here
                failures.add(name + ": " + e);
            }
        }
        assertEquals(List.of(), failures);
    }
}
