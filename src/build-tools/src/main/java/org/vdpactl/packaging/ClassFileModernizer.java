package org.vdpactl.packaging;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Enumeration;
import java.util.function.Predicate;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Rewrites pre-Java-6 class files (major version below 50) as Java 8 class files with stack-map frames.
 *
 * <p>Why: picocli ships Java 5 class files. The JDK's AOT cache and dynamic CDS archive cannot keep a class
 * that old once it has been linked (the dump says "Skipping picocli/...: Old class has been linked"), so every
 * start re-loads and re-verifies all of picocli with the old inference verifier. Giving those classes frames
 * (computed by ASM) and version 52 changes nothing in their behaviour and lets the archive hold them.
 * Classes that use {@code jsr}/{@code ret} cannot be given frames and are left as they are.
 */
public final class ClassFileModernizer {
    /** Class-file major version of Java 6, the first with stack-map frames. */
    static final int FIRST_WITH_FRAMES = 50;
    private static final int TARGET = Opcodes.V1_8;

    private ClassFileModernizer() {
    }

    /** What a run over a jar did. */
    public record Result(int rewritten, int keptWithJsr, int alreadyModern) {
    }

    /** The class-file major version of {@code classFile}. */
    static int majorVersion(byte[] classFile) {
        return ((classFile[6] & 0xFF) << 8) | (classFile[7] & 0xFF);
    }

    /**
     * Rewrites, in place, the old class files of {@code jar} whose entry name {@code select} accepts.
     * The other entries are copied byte for byte, in their order, with their timestamps.
     */
    public static Result modernizeJar(Path jar, Predicate<String> select) throws IOException {
        Path tmp = Files.createTempFile(jar.toAbsolutePath().getParent(), jar.getFileName().toString(), ".tmp");
        int rewritten = 0;
        int jsr = 0;
        int modern = 0;
        try (URLClassLoader resolver = new URLClassLoader(new URL[] {jar.toUri().toURL()}, ClassLoader.getPlatformClassLoader());
             ZipFile in = new ZipFile(jar.toFile());
             OutputStream file = Files.newOutputStream(tmp);
             ZipOutputStream out = new ZipOutputStream(file)) {
            Enumeration<? extends ZipEntry> entries = in.entries();
            while (entries.hasMoreElements()) {
                ZipEntry e = entries.nextElement();
                byte[] bytes = read(in, e);
                if (e.getName().endsWith(".class") && select.test(e.getName())) {
                    if (majorVersion(bytes) >= FIRST_WITH_FRAMES) {
                        modern++;
                    } else {
                        byte[] upgraded = modernize(bytes, resolver);
                        if (upgraded == bytes) {
                            jsr++;
                        } else {
                            rewritten++;
                            bytes = upgraded;
                        }
                    }
                }
                ZipEntry copy = new ZipEntry(e.getName());
                copy.setTime(e.getTime());
                out.putNextEntry(copy);
                out.write(bytes);
                out.closeEntry();
            }
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(tmp);
            throw e;
        }
        // createTempFile makes the file 0600: the rewritten jar keeps the original's mode, so that
        // a jar built by root stays runnable by other users.
        if (Files.getFileStore(jar).supportsFileAttributeView("posix")) {
            Files.setPosixFilePermissions(tmp, Files.getPosixFilePermissions(jar));
        }
        Files.move(tmp, jar, StandardCopyOption.REPLACE_EXISTING);
        return new Result(rewritten, jsr, modern);
    }

    /**
     * One class file as version 52 with frames; {@code classFile} itself when it is already version 50 or newer
     * or uses {@code jsr}/{@code ret}. {@code resolver} loads (without initialising) the types whose common
     * super class the frames need.
     */
    public static byte[] modernize(byte[] classFile, ClassLoader resolver) {
        if (majorVersion(classFile) >= FIRST_WITH_FRAMES || usesSubroutines(classFile)) {
            return classFile;
        }
        ClassReader reader = new ClassReader(classFile);
        ClassWriter writer = new ClassWriter(ClassWriter.COMPUTE_FRAMES) {
            @Override
            protected ClassLoader getClassLoader() {
                return resolver;
            }
        };
        reader.accept(new ClassVisitor(Opcodes.ASM9, writer) {
            @Override
            public void visit(int version, int access, String name, String signature, String superName, String[] interfaces) {
                super.visit(TARGET, access, name, signature, superName, interfaces);
            }
        }, ClassReader.SKIP_FRAMES);
        return writer.toByteArray();
    }

    private static boolean usesSubroutines(byte[] classFile) {
        boolean[] found = {false};
        new ClassReader(classFile).accept(new ClassVisitor(Opcodes.ASM9) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
                return new MethodVisitor(Opcodes.ASM9) {
                    @Override
                    public void visitJumpInsn(int opcode, Label label) {
                        found[0] |= opcode == Opcodes.JSR;
                    }

                    @Override
                    public void visitVarInsn(int opcode, int varIndex) {
                        found[0] |= opcode == Opcodes.RET;
                    }
                };
            }
        }, ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
        return found[0];
    }

    /** The bytes of one entry of an open jar. */
    static byte[] read(ZipFile zip, ZipEntry entry) {
        try (InputStream is = zip.getInputStream(entry)) {
            return is.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
