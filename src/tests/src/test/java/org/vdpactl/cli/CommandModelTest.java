package org.vdpactl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;
import picocli.CommandLine.Spec;

/**
 * The command line's model, built from src/cli's written-down {@code CommandSpecs} ({@link CommandModel}), is the
 * model picocli builds from the annotations, command by command: the same options and parameters with every
 * attribute, the same mixins, the same usage text, and the same {@code @Spec} fields set to the same specs.
 */
class CommandModelTest {
    @Test
    void everyCommandsModelIsPicocliOwn() {
        String written = dump(Main.commandLine());
        String reflective = dump(CommandModel.reflectively(Main::commandLine));
        assertTrue(written.contains("command vdpactl dev list"), written);
        sameLines(reflective, written);
    }

    /** The first line where the two differ, with the command it belongs to (the whole dump is thousands of lines). */
    private static void sameLines(String expected, String actual) {
        String[] e = expected.split("\n", -1);
        String[] a = actual.split("\n", -1);
        String command = "";
        for (int i = 0; i < Math.min(e.length, a.length); i++) {
            command = e[i].startsWith("command ") ? e[i] : command;
            assertEquals(e[i], a[i], "line " + (i + 1) + " of " + command);
        }
        assertEquals(e.length, a.length, "lines of the dump");
    }

    @Test
    void theCommandLineIsBuiltFromTheWrittenModels() {
        CommandLine cl = Main.commandLine();
        CommandSpec list = cl.getSubcommands().get("dev").getSubcommands().get("list").getCommandSpec();
        assertTrue(list.options().stream().flatMap(o -> o.userObject() instanceof Field f ? java.util.stream.Stream.of(f) : java.util.stream.Stream.empty())
                .findAny().isPresent(), "options bound to fields");
        // picocli's own member wrapper is not public: a written model's options carry ours
        assertTrue(list.options().stream().allMatch(o -> o.scope().getClass().getName().startsWith(MemberElement.class.getName())),
                "every option of dev list comes from a written model");
        CommandSpec reflective = CommandModel.reflectively(Main::commandLine).getSubcommands().get("dev").getSubcommands().get("list")
                .getCommandSpec();
        assertNotEquals(reflective.options().getFirst().scope().getClass(), list.options().getFirst().scope().getClass());
    }

    @Test
    void aParsedCommandLineSetsTheSameFields() {
        String[] args = {"--backend", "fake", "-j", "-p", "dev", "list"};
        CommandLine written = Main.commandLine();
        CommandLine reflective = CommandModel.reflectively(Main::commandLine);
        CommandLine.ParseResult a = written.parseArgs(args);
        CommandLine.ParseResult b = reflective.parseArgs(args);
        assertEquals(values(b), values(a));
        assertTrue(values(a).contains("--backend=FAKE") || values(a).contains("--backend=fake"), values(a));
    }

    private static String values(CommandLine.ParseResult r) {
        StringBuilder b = new StringBuilder();
        for (CommandLine.ParseResult p = r; p != null; p = p.subcommand()) {
            b.append(p.commandSpec().qualifiedName()).append(':');
            for (OptionSpec o : p.commandSpec().options()) {
                b.append(' ').append(o.longestName()).append('=').append(show(o.getValue()));
            }
            b.append('\n');
        }
        return b.toString();
    }

    /** Every attribute of the tree that a user or the command's code can see, as text. */
    static String dump(CommandLine root) {
        StringBuilder b = new StringBuilder();
        dump(root, b, new IdentityHashMap<>());
        return b.toString();
    }

    private static void dump(CommandLine cl, StringBuilder b, Map<Object, Boolean> seen) {
        CommandSpec s = cl.getCommandSpec();
        if (seen.put(s, true) != null) {
            return;
        }
        b.append("command ").append(s.qualifiedName()).append('\n');
        spec(s, b, "  ");
        b.append("  usage:\n").append(cl.getUsageMessage(CommandLine.Help.Ansi.OFF)).append('\n');
        for (Map.Entry<String, CommandLine> e : s.subcommands().entrySet()) {
            b.append("  subcommand ").append(e.getKey()).append(" -> ").append(e.getValue().getCommandName()).append('\n');
        }
        for (CommandLine sub : s.subcommands().values()) {
            dump(sub, b, seen);
        }
    }

    private static void spec(CommandSpec s, StringBuilder b, String pad) {
        b.append(pad).append("user object ").append(name(s.userObject().getClass())).append(", toString ").append(norm(s.toString())).append('\n');
        b.append(pad).append("name ").append(s.name()).append(", aliases ").append(Arrays.toString(s.aliases())).append(", version ")
                .append(Arrays.toString(s.version())).append(", version provider ").append(s.versionProvider() == null ? null : s.versionProvider().getClass())
                .append(", default provider ").append(s.defaultValueProvider()).append('\n');
        b.append(pad).append("help command ").append(s.helpCommand()).append(", standard help ").append(s.mixinStandardHelpOptions())
                .append(", scope ").append(s.scopeType()).append(", inherited ").append(s.inherited()).append(", exit codes ")
                .append(List.of(s.exitCodeOnSuccess(), s.exitCodeOnUsageHelp(), s.exitCodeOnVersionHelp(), s.exitCodeOnInvalidInput(),
                        s.exitCodeOnExecutionException()))
                .append(", separator ").append(s.parser().separator()).append(", repeatable ").append(s.subcommandsRepeatable())
                .append(", interpolate ").append(s.interpolateVariables()).append(", method subcommands ").append(s.isAddMethodSubcommands())
                .append('\n');
        b.append(pad).append("usage spec ").append(usageSpec(s.usageMessage())).append('\n');
        for (OptionSpec o : s.options()) {
            b.append(pad).append("option ").append(arg(o)).append(", names ").append(Arrays.toString(o.names())).append(", help ")
                    .append(List.of(o.help(), o.usageHelp(), o.versionHelp())).append(", negatable ").append(o.negatable()).append(", fallback ")
                    .append(o.fallbackValue()).append(", order ").append(o.order()).append('\n');
        }
        for (PositionalParamSpec p : s.positionalParameters()) {
            b.append(pad).append("parameters ").append(arg(p)).append(", index ").append(p.index()).append('\n');
        }
        b.append(pad).append("spec elements ").append(s.specElements().size()).append('\n');
        specFields(s.userObject(), s, b, pad);
        for (Map.Entry<String, CommandSpec> m : s.mixins().entrySet()) {
            b.append(pad).append("mixin ").append(m.getKey()).append(" element ")
                    .append(s.mixinAnnotatedElements().get(m.getKey()) == null ? "none" : norm(s.mixinAnnotatedElements().get(m.getKey()).getToString()))
                    .append('\n');
            spec(m.getValue(), b, pad + "  ");
            specFields(m.getValue().userObject(), s, b, pad + "  ");
        }
    }

    /** Which spec each {@code @Spec} field of {@code object} holds: its own command's, the mixee's, or another. */
    private static void specFields(Object object, CommandSpec mixee, StringBuilder b, String pad) {
        for (Class<?> k = object.getClass(); k != null && k != Object.class; k = k.getSuperclass()) {
            for (Field f : k.getDeclaredFields()) {
                if (f.isAnnotationPresent(Spec.class)) {
                    Object v = read(f, object);
                    String holds = v == null ? "null" : v == mixee ? "the command's spec" : ((CommandSpec) v).userObject() == object ? "its own spec" : "another spec";
                    b.append(pad).append("@Spec ").append(k.getSimpleName()).append('.').append(f.getName()).append(" holds ").append(holds).append('\n');
                }
            }
        }
    }

    private static Object read(Field f, Object o) {
        try {
            f.setAccessible(true);
            return f.get(o);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    private static String usageSpec(CommandLine.Model.UsageMessageSpec u) {
        return List.of(Arrays.toString(u.description()), u.descriptionHeading(), Arrays.toString(u.header()), u.headerHeading(),
                Arrays.toString(u.footer()), u.footerHeading(), Arrays.toString(u.customSynopsis()), u.synopsisHeading(),
                u.optionListHeading(), u.parameterListHeading(), u.commandListHeading(), String.valueOf(u.sortOptions()),
                String.valueOf(u.sortSynopsis()), String.valueOf(u.abbreviateSynopsis()), String.valueOf(u.width()),
                String.valueOf(u.autoWidth()), String.valueOf(u.hidden()), String.valueOf(u.showDefaultValues()),
                String.valueOf(u.showAtFileInUsageHelp()), String.valueOf(u.showEndOfOptionsDelimiterInUsageHelp()),
                String.valueOf(u.requiredOptionMarker()), u.synopsisSubcommandLabel(), String.valueOf(u.adjustLineBreaksForWideCJKCharacters()),
                String.valueOf(u.sectionKeys())).toString();
    }

    private static String arg(ArgSpec a) {
        List<String> candidates = new ArrayList<>();
        if (a.completionCandidates() != null) {
            a.completionCandidates().forEach(candidates::add);
        }
        return norm(a.toString()) + " [user object " + norm(String.valueOf(a.userObject())) + ", arity " + a.arity() + ", label "
                + a.paramLabel() + ", type " + a.type().getName() + ", aux " + Arrays.toString(a.auxiliaryTypes()) + ", type info "
                + a.typeInfo() + ", default " + a.defaultValue() + ", initial " + show(a.initialValue()) + ", has initial "
                + a.hasInitialValue() + ", required " + a.required() + ", hidden " + a.hidden() + ", inherited " + a.inherited() + ", scope "
                + a.scopeType() + ", key " + a.descriptionKey() + ", description " + Arrays.toString(a.description()) + ", rendered "
                + Arrays.toString(a.renderedDescription()) + ", candidates " + candidates + ", converters "
                + Arrays.stream(a.converters()).map(c -> c.getClass().getName()).toList() + ", split " + a.splitRegex() + "/"
                + a.splitRegexSynopsisLabel() + ", show default " + a.showDefaultValue() + ", interactive " + a.interactive() + "/" + a.echo()
                + "/" + a.prompt() + ", hide syntax " + a.hideParamSyntax() + ", map fallback " + a.mapFallbackValue() + ", group " + a.group()
                + ", consumer " + a.parameterConsumer() + ", preprocessor " + (a.preprocessor() == null ? null : a.preprocessor().getClass().getName())
                + ", multi " + a.isMultiValue() + ", value " + show(a.getValue()) + "]";
    }

    private static String show(Object v) {
        return v != null && v.getClass().isArray() ? Arrays.deepToString(new Object[] {v}) : String.valueOf(v);
    }

    private static String name(Class<?> c) {
        return norm(c.getName());
    }

    /**
     * picocli's standard help options live on its AutoHelpMixin, ours on StandardHelpOptions (the same annotations;
     * private fields there, package-private here, where CliCommandFields writes them).
     */
    private static String norm(String s) {
        // (and an object's identity hash code differs between two trees)
        return s.replace("private boolean picocli.CommandLine$AutoHelpMixin", "boolean picocli.CommandLine$AutoHelpMixin")
                .replace("picocli.CommandLine$AutoHelpMixin", StandardHelpOptions.class.getName()).replaceAll("@[0-9a-f]{1,8}\\b", "@HASH");
    }
}
