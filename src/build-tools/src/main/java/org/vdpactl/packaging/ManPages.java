package org.vdpactl.packaging;

import java.util.ArrayList;
import java.util.IllegalFormatException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * Man pages (troff, section 1) rendered straight from the picocli model: one page per command, named like
 * git's ({@code vdpactl-dev-list.1}), so no AsciiDoc tool-chain is needed at build time.
 */
public final class ManPages {
    private final String version;
    private final String date;

    /**
     * @param version the version printed in the page footer
     * @param date    the page date, {@code YYYY-MM-DD} (the build passes its own, so pages are reproducible)
     */
    public ManPages(String version, String date) {
        this.version = version;
        this.date = date;
    }

    /** File name ({@code vdpactl-dev-list.1}) to page text, for {@code root} and every visible subcommand. */
    public Map<String, String> render(CommandLine root) {
        root.setColorScheme(CommandLine.Help.defaultColorScheme(CommandLine.Help.Ansi.OFF));
        Map<String, String> pages = new LinkedHashMap<>();
        collect(root, pages);
        return pages;
    }

    private void collect(CommandLine cl, Map<String, String> pages) {
        pages.put(pageName(cl.getCommandSpec()) + ".1", page(cl));
        for (CommandLine sub : visibleSubcommands(cl)) {
            collect(sub, pages);
        }
    }

    static String pageName(CommandSpec spec) {
        return spec.qualifiedName("-");
    }

    private static List<CommandLine> visibleSubcommands(CommandLine cl) {
        List<CommandLine> subs = new ArrayList<>();
        for (Map.Entry<String, CommandLine> e : cl.getSubcommands().entrySet()) {
            CommandSpec s = e.getValue().getCommandSpec();
            // aliases appear as extra keys of the same command; list each command once, under its name
            if (!s.usageMessage().hidden() && e.getKey().equals(s.name()) && !(s.userObject() instanceof CommandLine.HelpCommand)) {
                subs.add(e.getValue());
            }
        }
        return subs;
    }

    private String page(CommandLine cl) {
        CommandSpec spec = cl.getCommandSpec();
        String name = pageName(spec);
        StringBuilder t = new StringBuilder();
        t.append(".\\\" Generated at build time by org.vdpactl.packaging.ManPages from the picocli model; do not edit.\n");
        t.append(".TH \"").append(escape(name.toUpperCase(Locale.ROOT))).append("\" \"1\" \"").append(date)
                .append("\" \"vdpactl ").append(escape(version)).append("\" \"vdpactl Manual\"\n");
        t.append(".SH NAME\n").append(escape(name).replace("-", "\\-")).append(" \\- ").append(escape(summary(spec))).append('\n');
        t.append(".SH SYNOPSIS\n.nf\n").append(literal(synopsis(cl))).append(".fi\n");
        List<String> description = lines(spec.usageMessage().description());
        if (!description.isEmpty()) {
            t.append(".SH DESCRIPTION\n").append(paragraphs(description));
        }
        appendOptions(t, spec);
        appendPositionals(t, spec);
        appendCommands(t, cl);
        appendExitStatus(t, spec);
        appendSeeAlso(t, cl);
        return t.toString();
    }

    /** The header's first line, else the description's first sentence (which may span lines). */
    static String summary(CommandSpec spec) {
        List<String> header = lines(spec.usageMessage().header());
        if (!header.isEmpty()) {
            return header.get(0).strip();
        }
        String text = String.join(" ", lines(spec.usageMessage().description())).replaceAll("\\s+", " ").strip();
        if (text.isEmpty()) {
            return spec.qualifiedName();
        }
        int end = text.indexOf(". ");
        return end < 0 ? text : text.substring(0, end + 1);
    }

    private static String synopsis(CommandLine cl) {
        // the command line's own synopsis section, as --help prints it: vdpactl's breaks between options only, where
        // picocli's own cut "[--fake-kernel=6.1|6." / "12|7.2]"
        CommandLine.IHelpSectionRenderer renderer = cl.getHelpSectionMap().get(CommandLine.Model.UsageMessageSpec.SECTION_KEY_SYNOPSIS);
        String s = renderer != null ? renderer.render(cl.getHelp()) : cl.getHelp().synopsis(0);
        String heading = cl.getCommandSpec().usageMessage().synopsisHeading().replace("%n", "");
        return s.startsWith(heading) ? s.substring(heading.length()) : s;
    }

    private static void appendOptions(StringBuilder t, CommandSpec spec) {
        List<OptionSpec> options = spec.options().stream().filter(o -> !o.hidden()).toList();
        if (options.isEmpty()) {
            return;
        }
        t.append(".SH OPTIONS\n");
        for (OptionSpec o : options) {
            t.append(".TP\n");
            List<String> names = new ArrayList<>();
            for (String n : o.names()) {
                names.add("\\fB" + escape(n).replace("-", "\\-") + "\\fR");
            }
            t.append(String.join(", ", names));
            if (o.typeInfo() != null && !o.typeInfo().isBoolean() && o.arity().max() > 0) {
                t.append("=\\fI").append(escape(o.paramLabel())).append("\\fR");
            }
            t.append('\n').append(fill(lines(o.renderedDescription())));
        }
    }

    private static void appendPositionals(StringBuilder t, CommandSpec spec) {
        List<PositionalParamSpec> params = spec.positionalParameters().stream().filter(p -> !p.hidden()).toList();
        if (params.isEmpty()) {
            return;
        }
        t.append(".SH ARGUMENTS\n");
        for (PositionalParamSpec p : params) {
            t.append(".TP\n\\fI").append(escape(p.paramLabel())).append("\\fR\n").append(fill(lines(p.renderedDescription())));
        }
    }

    private static void appendCommands(StringBuilder t, CommandLine cl) {
        List<CommandLine> subs = visibleSubcommands(cl);
        if (subs.isEmpty()) {
            return;
        }
        t.append(".SH COMMANDS\n");
        for (CommandLine sub : subs) {
            CommandSpec s = sub.getCommandSpec();
            t.append(".TP\n\\fB").append(escape(s.name())).append("\\fR\n")
                    .append(escape(summary(s))).append(" See \\fB").append(escape(pageName(s)).replace("-", "\\-"))
                    .append("\\fR(1).\n");
        }
    }

    private static void appendExitStatus(StringBuilder t, CommandSpec spec) {
        Map<String, String> codes = spec.usageMessage().exitCodeList();
        List<String> footer = lines(spec.usageMessage().footer());
        String heading = format(spec.usageMessage().footerHeading()).strip().replaceAll(":$", "");
        if (!codes.isEmpty()) {
            t.append(".SH EXIT STATUS\n");
            codes.forEach((code, meaning) -> t.append(".TP\n").append(escape(code.strip())).append('\n').append(escape(meaning.strip())).append('\n'));
        }
        if (!footer.isEmpty()) {
            t.append(".SH ").append(heading.isEmpty() ? "NOTES" : escape(heading.toUpperCase(Locale.ROOT))).append('\n');
            t.append(paragraphs(footer));
        }
    }

    private static void appendSeeAlso(StringBuilder t, CommandLine cl) {
        List<String> refs = new ArrayList<>();
        if (cl.getParent() != null) {
            refs.add(pageName(cl.getParent().getCommandSpec()));
        }
        for (CommandLine sub : visibleSubcommands(cl)) {
            refs.add(pageName(sub.getCommandSpec()));
        }
        if (refs.isEmpty()) {
            return;
        }
        List<String> formatted = refs.stream().map(r -> "\\fB" + escape(r).replace("-", "\\-") + "\\fR(1)").toList();
        t.append(".SH SEE ALSO\n").append(String.join(",\n", formatted)).append('\n');
    }

    /** Usage-help strings are format strings ({@code %n}); this expands them the way picocli's help does. */
    static String format(String s) {
        if (s == null) {
            return "";
        }
        try {
            return String.format(Locale.ROOT, s);
        } catch (IllegalFormatException e) {
            return s;
        }
    }

    private static List<String> lines(String[] parts) {
        List<String> out = new ArrayList<>();
        if (parts != null) {
            for (String p : parts) {
                out.addAll(format(p).lines().toList());
            }
        }
        return out;
    }

    /** Consecutive lines as one filled paragraph; blank lines start a new one. */
    private static String paragraphs(List<String> lines) {
        StringBuilder t = new StringBuilder();
        boolean open = false;
        for (String line : lines) {
            if (line.isBlank()) {
                open = false;
                continue;
            }
            if (!open) {
                t.append(".PP\n");
                open = true;
            }
            t.append(escapeLine(line.strip())).append('\n');
        }
        return t.toString();
    }

    private static String fill(List<String> lines) {
        StringBuilder t = new StringBuilder();
        for (String line : lines) {
            if (!line.isBlank()) {
                t.append(escapeLine(line.strip())).append('\n');
            }
        }
        return t.toString();
    }

    /** Text shown as is (no filling), one troff line per text line. */
    private static String literal(String text) {
        StringBuilder t = new StringBuilder();
        for (String line : text.lines().toList()) {
            t.append(escapeLine(line)).append('\n');
        }
        return t.toString();
    }

    /** Escapes troff's escape character; a line-leading control character is neutralised by {@link #escapeLine}. */
    static String escape(String s) {
        return s.replace("\\", "\\e");
    }

    static String escapeLine(String line) {
        String e = escape(line);
        return e.startsWith(".") || e.startsWith("'") ? "\\&" + e : e;
    }
}
