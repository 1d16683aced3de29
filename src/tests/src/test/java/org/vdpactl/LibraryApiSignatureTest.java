package org.vdpactl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The library modules' API names only exported types: no public or protected member (method, constructor, field),
 * supertype or type parameter of a public class in a package its module exports to everyone mentions a vdpactl type
 * of a package that is not exported to everyone (issue 32 item 9: {@code FakeKernel.bus()} returned the fake's
 * internal {@code FakeVdpaBus}, which a user on the module path cannot name and the javadoc showed as a dead
 * type). vdpactl's own modules reach such types through packages exported to them alone
 * ({@code org.vdpactl.fake.inside.FakeInside}).
 *
 * <p>The class path of this test module has every class, so the test reads the exports from each module's
 * {@code module-info.java} and the classes from its sources, and inspects them by reflection.
 */
class LibraryApiSignatureTest {
    private static final Path ROOT = RepositoryRoot.find();
    /**
     * The library modules whose exported packages docs/library.md calls the API. vdpactl-sim is published too, but its
     * package is the simulator of the CLI's commands, built on the fake's inside (presets, cost models), and the page
     * calls it not stable.
     */
    static final List<String> LIBRARIES = List.of("abi", "client", "orchestra", "fake", "testkit", "report");

    @Test
    void noExportedSignatureNamesATypeOfAPackageThatIsNotExported() throws Exception {
        Set<String> exported = exportedPackages();
        List<String> offending = new ArrayList<>();
        int classes = 0;
        for (String module : LIBRARIES) {
            for (Class<?> c : exportedClasses(module, exported)) {
                classes++;
                offending.addAll(signatureProblems(c, exported));
            }
        }
        assertTrue(classes > 100, "the API classes found: " + classes);
        assertEquals(List.of(), offending, "exported signatures naming a type of a package not exported to everyone");
    }

    /** Every package that some vdpactl module exports without a {@code to} clause. */
    static Set<String> exportedPackages() throws IOException {
        Set<String> out = new TreeSet<>();
        try (Stream<Path> modules = Files.list(ROOT.resolve("src"))) {
            for (Path m : modules.toList()) {
                Path info = m.resolve("src/main/java/module-info.java");
                if (Files.isRegularFile(info)) {
                    Matcher e = Pattern.compile("(?m)^\\s*exports ([\\w.]+);").matcher(Files.readString(info));
                    while (e.find()) {
                        out.add(e.group(1));
                    }
                }
            }
        }
        return out;
    }

    /** The public classes (nested ones included) of the packages {@code module} exports to everyone. */
    static List<Class<?>> exportedClasses(String module, Set<String> exported) throws Exception {
        Path src = ROOT.resolve("src/" + module + "/src/main/java");
        Matcher e = Pattern.compile("(?m)^\\s*exports ([\\w.]+);").matcher(Files.readString(src.resolve("module-info.java")));
        List<Class<?>> out = new ArrayList<>();
        while (e.find()) {
            try (Stream<Path> files = Files.list(src.resolve(e.group(1).replace('.', '/')))) {
                for (Path f : files.filter(p -> p.toString().endsWith(".java") && !p.endsWith("package-info.java")).toList()) {
                    Class<?> top = Class.forName(e.group(1) + "." + f.getFileName().toString().replace(".java", ""), false,
                            LibraryApiSignatureTest.class.getClassLoader());
                    collectVisible(top, out);
                }
            }
        }
        return out;
    }

    private static void collectVisible(Class<?> c, List<Class<?>> out) {
        if (!Modifier.isPublic(c.getModifiers()) && !(c.isMemberClass() && Modifier.isProtected(c.getModifiers()))) {
            return;
        }
        out.add(c);
        for (Class<?> n : c.getDeclaredClasses()) {
            collectVisible(n, out);
        }
    }

    /** What {@code c} shows a user that names a vdpactl type outside {@code exported}, one line each. */
    static List<String> signatureProblems(Class<?> c, Set<String> exported) {
        List<String> out = new ArrayList<>();
        String name = c.getName();
        check(name + " extends", c.getGenericSuperclass(), exported, out);
        for (Type t : c.getGenericInterfaces()) {
            check(name + " implements", t, exported, out);
        }
        for (TypeVariable<?> v : c.getTypeParameters()) {
            checkAll(name + "<" + v.getName() + ">", v.getBounds(), exported, out);
        }
        boolean subclassable = !Modifier.isFinal(c.getModifiers()) && !c.isEnum() && !c.isRecord();
        for (Field f : c.getDeclaredFields()) {
            if (visible(f.getModifiers(), subclassable) && !f.isSynthetic()) {
                check(name + "." + f.getName(), f.getGenericType(), exported, out);
            }
        }
        Set<Executable> members = new LinkedHashSet<>();
        for (Constructor<?> k : c.getDeclaredConstructors()) {
            members.add(k);
        }
        for (Method m : c.getDeclaredMethods()) {
            members.add(m);
        }
        for (Method m : c.getMethods()) { // public methods inherited from a superclass a user cannot see
            members.add(m);
        }
        for (Executable x : members) {
            if (!visible(x.getModifiers(), subclassable) || x.isSynthetic() || (x instanceof Method m && m.isBridge())) {
                continue;
            }
            String what = name + "." + (x instanceof Constructor<?> ? "<init>" : x.getName()) + "(...)";
            if (x instanceof Method m) {
                check(what + " returns", m.getGenericReturnType(), exported, out);
            }
            checkAll(what + " takes", x.getGenericParameterTypes(), exported, out);
            checkAll(what + " throws", x.getGenericExceptionTypes(), exported, out);
            for (TypeVariable<?> v : x.getTypeParameters()) {
                checkAll(what + " <" + v.getName() + ">", v.getBounds(), exported, out);
            }
        }
        return out.stream().distinct().toList();
    }

    private static boolean visible(int modifiers, boolean subclassable) {
        return Modifier.isPublic(modifiers) || (subclassable && Modifier.isProtected(modifiers));
    }

    private static void checkAll(String where, Type[] types, Set<String> exported, List<String> out) {
        for (Type t : types) {
            check(where, t, exported, out);
        }
    }

    private static void check(String where, Type type, Set<String> exported, List<String> out) {
        Set<Class<?>> named = new LinkedHashSet<>();
        mentioned(type, named, new HashSet<>());
        for (Class<?> n : named) {
            if (n.getName().startsWith("org.vdpactl.") && (!exported.contains(n.getPackageName()) || !reachable(n))) {
                out.add(where + " " + n.getName());
            }
        }
    }

    /** Public, and so is every class it is nested in. */
    private static boolean reachable(Class<?> c) {
        for (Class<?> k = c; k != null; k = k.getEnclosingClass()) {
            if (!Modifier.isPublic(k.getModifiers()) && !(k.isMemberClass() && Modifier.isProtected(k.getModifiers()))) {
                return false;
            }
        }
        return true;
    }

    private static void mentioned(Type t, Set<Class<?>> out, Set<TypeVariable<?>> seen) {
        switch (t) {
            case null -> {
            }
            case Class<?> c -> {
                if (c.isArray()) {
                    mentioned(c.getComponentType(), out, seen);
                } else if (!c.isPrimitive()) {
                    out.add(c);
                }
            }
            case ParameterizedType p -> {
                mentioned(p.getRawType(), out, seen);
                mentioned(p.getOwnerType(), out, seen);
                for (Type a : p.getActualTypeArguments()) {
                    mentioned(a, out, seen);
                }
            }
            case WildcardType w -> {
                for (Type b : w.getUpperBounds()) {
                    mentioned(b, out, seen);
                }
                for (Type b : w.getLowerBounds()) {
                    mentioned(b, out, seen);
                }
            }
            case TypeVariable<?> v -> {
                if (seen.add(v)) {
                    for (Type b : v.getBounds()) {
                        mentioned(b, out, seen);
                    }
                }
            }
            case GenericArrayType g -> mentioned(g.getGenericComponentType(), out, seen);
            default -> throw new AssertionError("unknown kind of type " + t);
        }
    }
}
