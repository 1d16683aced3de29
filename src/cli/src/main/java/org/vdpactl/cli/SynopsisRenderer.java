package org.vdpactl.cli;

import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Help;
import picocli.CommandLine.IHelpSectionRenderer;
import picocli.CommandLine.Model.UsageMessageSpec;

/**
 * The usage line, wrapped between options only: picocli breaks its synopsis wherever a line breaks
 * text, which cuts an option's value ("[--fake-kernel=6.1|6." / "12|7.2]"). This one lays the synopsis
 * out on one line and breaks it only at spaces outside brackets, continuing under the first option.
 */
final class SynopsisRenderer implements IHelpSectionRenderer {
    private static final int UNWRAPPED = 100_000;

    /** Puts this renderer on {@code cl} and every subcommand below it. */
    static void install(CommandLine cl) {
        cl.getHelpSectionMap().put(UsageMessageSpec.SECTION_KEY_SYNOPSIS, new SynopsisRenderer());
        cl.getSubcommands().values().forEach(SynopsisRenderer::install);
    }

    @Override
    public String render(Help help) {
        UsageMessageSpec usage = help.commandSpec().usageMessage();
        int width = usage.width();
        String line;
        try {
            usage.width(UNWRAPPED);
            line = new Help(help.commandSpec(), help.colorScheme()).synopsis(0).strip();
        } finally {
            usage.width(width);
        }
        // the heading ("Usage: ") is printed before this section, on the same line
        int heading = help.synopsisHeading().replaceAll("%n", "").length();
        return String.join("\n", wrap(line, width, heading)) + "\n";
    }

    /**
     * {@code line} broken at spaces outside brackets and braces, continuation lines indented under the first
     * argument; the first line starts after a heading of {@code heading} characters.
     */
    static List<String> wrap(String line, int width, int heading) {
        List<String> tokens = new ArrayList<>();
        int depth = 0;
        StringBuilder t = new StringBuilder();
        for (char c : line.toCharArray()) {
            if (c == '[' || c == '(' || c == '{') {
                depth++;
            } else if ((c == ']' || c == ')' || c == '}') && depth > 0) {
                depth--;
            }
            if (c == ' ' && depth == 0) {
                if (!t.isEmpty()) {
                    tokens.add(t.toString());
                }
                t.setLength(0);
            } else {
                t.append(c);
            }
        }
        if (!t.isEmpty()) {
            tokens.add(t.toString());
        }
        // "vdpactl rehearse" is the head: the options continue under the first of them
        int head = 0;
        StringBuilder first = new StringBuilder();
        while (head < tokens.size() && (head == 0 || !isArgument(tokens.get(head)))) {
            first.append(head == 0 ? "" : " ").append(tokens.get(head));
            head++;
        }
        String indent = " ".repeat(Math.min(heading + first.length() + 1, width / 2));
        List<String> lines = new ArrayList<>();
        StringBuilder cur = new StringBuilder(first);
        for (int i = head; i < tokens.size(); i++) {
            String tok = tokens.get(i);
            int used = lines.isEmpty() ? heading + cur.length() : cur.length();
            if (used + 1 + tok.length() > width && cur.length() > indent.length()) {
                lines.add(cur.toString());
                cur = new StringBuilder(indent);
            } else if (!cur.isEmpty() && !cur.toString().equals(indent)) {
                cur.append(' ');
            }
            cur.append(tok);
        }
        lines.add(cur.toString());
        return lines;
    }

    private static boolean isArgument(String token) {
        char c = token.charAt(0);
        return c == '[' || c == '-' || c == '(' || c == '<' || Character.isUpperCase(c) && token.equals(token.toUpperCase());
    }
}
