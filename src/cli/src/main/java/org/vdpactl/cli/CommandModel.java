package org.vdpactl.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IFactory;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.IAnnotatedElement;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;
import picocli.CommandLine.Spec;

/**
 * picocli's model of a command, built without reading an annotation at run time.
 *
 * <p>picocli builds a command's model from its {@code @Command}, {@code @Option}, {@code @Parameters},
 * {@code @Mixin} and {@code @Spec} annotations, read by reflection. The JDK answers the first read of each
 * annotation type by generating a proxy class for it (and for the annotations on annotations), and no JDK 25 AOT
 * cache keeps those classes: that reading was the largest share of a command's start-up (docs/benchmarks.md,
 * section 4, "Where the start-up goes"). {@link CommandSpecs} is the same model written down at build time from
 * the same annotations (the annotations stay the one place each option is declared; {@code CommandSpecsSourceTest}
 * regenerates the file and fails when it differs). This class takes picocli's own steps with those values, in
 * picocli's order ({@code CommandReflection.extractCommandSpec} of 4.7), so that its builders make the same model;
 * {@code CommandModelTest} compares the two for every command. The fields those steps read and write go through
 * their package's generated {@link CommandFieldAccess}, not reflection.
 */
final class CommandModel {
    /** Set by a test that wants picocli's own, reflective model (to compare it with this one). */
    private static final ThreadLocal<Boolean> REFLECTIVE = new ThreadLocal<>();

    private CommandModel() {
    }

    /** The command line of {@code command} (a command object, or a command line already made). */
    static CommandLine commandLine(Object command) {
        if (command instanceof CommandLine cl) {
            return cl;
        }
        IFactory factory = CommandLine.defaultFactory();
        return new CommandLine(spec(command, factory), factory);
    }

    /** The model of {@code command}: the one written down for its class, else picocli's reflective one. */
    static CommandSpec spec(Object command, IFactory factory) {
        CommandSpec written = Boolean.TRUE.equals(REFLECTIVE.get()) ? null : CommandSpecs.of(command, factory);
        return written != null ? written : CommandSpec.forAnnotatedObject(command, factory);
    }

    /** Runs {@code work} with picocli's reflective models on this thread (tests compare the two). */
    static <T> T reflectively(java.util.function.Supplier<T> work) {
        REFLECTIVE.set(Boolean.TRUE);
        try {
            return work.get();
        } finally {
            REFLECTIVE.remove();
        }
    }

    /** A model of {@code command} with nothing in it yet. */
    static CommandSpec empty(Object command, IFactory factory) {
        return CommandSpec.wrapWithoutInspection(command, factory);
    }

    /** A class's {@code @Command} (the classes of a command are read from the top of its hierarchy down). */
    static void command(CommandSpec spec, Command cmd, IFactory factory) {
        spec.updateCommandAttributes(cmd, factory);
    }

    /** One of {@code @Command(subcommands)}: an object of its class, under the name its own {@code @Command} gives. */
    static void subcommand(CommandSpec spec, String name, Class<?> type, IFactory factory) {
        try {
            spec.addSubcommand(name, commandLine(factory.create(type)));
        } catch (Exception e) {
            throw new CommandLine.InitializationException("Could not instantiate and add subcommand " + type.getName() + ": " + e, e);
        }
    }

    /** A member with an {@code @Option}, {@code @Parameters}, {@code @Mixin} or {@code @Spec}. */
    static void member(CommandSpec spec, MemberElement member, IFactory factory) {
        if (member.isMixin()) {
            CommandSpec mixin = mixin(member, factory);
            spec.addMixin(member.getMixinName(), mixin, member);
            for (IAnnotatedElement e : mixin.specElements()) {
                if (e.getAnnotation(Spec.class).value() == Spec.Target.MIXEE) {
                    set(e, spec);
                }
            }
        } else if (member.isOption()) {
            spec.add(OptionSpec.builder(member, factory).build());
        } else if (member.isParameter()) {
            spec.add(PositionalParamSpec.builder(member, factory).build());
        } else if (member.isSpec()) {
            spec.addSpecElement(member);
            if (member.getAnnotation(Spec.class).value() == Spec.Target.SELF) {
                set(member, spec);
            }
        }
    }

    private static CommandSpec mixin(MemberElement member, IFactory factory) {
        Object mixin = member.get();
        if (mixin == null) {
            try {
                mixin = factory.create(member.getTypeInfo().getType());
            } catch (Exception e) {
                throw new CommandLine.InitializationException("Could not access or modify mixin member " + member + ": " + e, e);
            }
            member.set(mixin);
        }
        return spec(mixin, factory).withToString(member.getToString());
    }

    private static void set(IAnnotatedElement element, CommandSpec spec) {
        try {
            element.setter().set(spec);
        } catch (Exception e) {
            throw new CommandLine.InitializationException("Could not inject spec", e);
        }
    }

    /**
     * The end of a command's model: picocli's standard help options ({@code -h}, {@code -V}) when a
     * {@code @Command} of its classes asked for them, added last as picocli adds them, unless the command has
     * options of those names.
     */
    static CommandSpec finish(CommandSpec spec, boolean standardHelpOptions, IFactory factory) {
        if (standardHelpOptions) {
            CommandSpec help = spec(new StandardHelpOptions(), factory);
            if (help.optionsMap().keySet().stream().noneMatch(spec.optionsMap()::containsKey)) {
                spec.addMixin(StandardHelpOptions.KEY, help);
            }
        }
        return spec;
    }

    /** The value of an attribute that names a class this package cannot name in source. */
    static Class<?> type(String binaryName) {
        try {
            return Class.forName(binaryName, false, CommandModel.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("CommandSpecs is out of date: no class " + binaryName, e);
        }
    }
}
