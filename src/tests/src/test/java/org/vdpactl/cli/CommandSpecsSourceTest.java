package org.vdpactl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.vdpactl.RepositoryRoot;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * src/cli's {@code CommandSpecs} is what {@link CommandSpecsSource} writes now from the annotations of every command
 * and mixin class of the command line ({@code -Dvdpactl.docs.write=true} rewrites it): an option changed in its
 * annotation and not in the written model fails here. {@link CommandModelTest} checks that the written model is
 * picocli's.
 */
class CommandSpecsSourceTest {
    @Test
    void theWrittenModelsAreWhatTheAnnotationsSayNow() throws Exception {
        Path file = RepositoryRoot.find().resolve(CommandSpecsSource.PATH);
        String now = CommandSpecsSource.render(commandClasses());
        if (Boolean.getBoolean("vdpactl.docs.write")) {
            Files.writeString(file, now);
        }
        assertEquals(now, Files.readString(file), CommandSpecsSource.PATH + " is out of date: -Dvdpactl.docs.write=true rewrites it");
    }

    @Test
    void everyClassOfTheTreeIsWrittenDown() {
        List<Class<?>> classes = commandClasses();
        assertTrue(classes.contains(Main.class) && classes.contains(StandardHelpOptions.class), classes.toString());
        for (Class<?> c : classes) {
            Object fresh = instance(c);
            assertTrue(CommandSpecs.of(fresh, CommandLine.defaultFactory()) != null, c + " has no written model");
        }
    }

    /** Every command and mixin class of the whole command tree as picocli builds it from the annotations. */
    static List<Class<?>> commandClasses() {
        CommandLine root = CommandModel.reflectively(Main::commandLine);
        Set<Class<?>> found = new LinkedHashSet<>();
        found.add(StandardHelpOptions.class);
        collect(root.getCommandSpec(), found, new LinkedHashSet<>());
        return new ArrayList<>(found);
    }

    private static void collect(CommandSpec spec, Set<Class<?>> found, Set<CommandSpec> seen) {
        if (!seen.add(spec)) {
            return;
        }
        Class<?> c = spec.userObject().getClass();
        if (c.getName().equals("picocli.CommandLine$AutoHelpMixin")) {
            c = StandardHelpOptions.class;
        }
        if (c != CommandLine.HelpCommand.class) {
            found.add(c);
        }
        spec.mixins().values().forEach(m -> collect(m, found, seen));
        spec.subcommands().values().forEach(sub -> collect(sub.getCommandSpec(), found, seen));
    }

    static Object instance(Class<?> c) {
        try {
            return CommandLine.defaultFactory().create(c);
        } catch (Exception e) {
            throw new AssertionError(c + " cannot be made", e);
        }
    }
}
