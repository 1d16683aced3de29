package org.vdpactl.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * iproute2's {@code vdpa} command words, rewritten into vdpactl's before picocli parses: abbreviations
 * ({@code vdpactl d s}, {@code m s}), {@code help} as a word ({@code dev help}) and the keyword arguments of
 * {@code dev add name NAME mgmtdev MGMTDEV [mac MAC] [mtu N] [max_vqp N] [device_features X]} and
 * {@code dev set name NAME mac MAC} (vdpa-dev(8)'s examples).
 *
 * <p>The matching rules are iproute2's (vdpa/vdpa.c): a command word matches by prefix ({@code matches()}, so
 * "s" is "show" and "d" is "dev"), tried in vdpa's order (help, then show/list, add, del, config, vstats, set;
 * at the top help, mgmtdev, dev); of the keyword arguments {@code name}, {@code mgmtdev} and {@code max_vqp}
 * match by prefix and {@code mac}, {@code mtu}, {@code device_features} only whole ({@code strcmp}). Only a word
 * in a command word's position is rewritten, and only when it is not already one of vdpactl's own names, so
 * nothing vdpactl accepted before changes meaning: {@code doctor} stays doctor, {@code dev show s} shows a device
 * named "s". A {@code dev add} takes the keyword form only when every other word from the first on is a keyword
 * with its value, in any order, {@code name} among them ({@code dev add name --mgmtdev X} still adds a device
 * named "name").
 */
final class IprouteForms {
    /** vdpa's objects, in the order vdpa_cmd() tries them. */
    private static final List<String> OBJECTS = List.of("mgmtdev", "dev");
    /** Each object's command words in the order vdpa tries them ("help" first everywhere). */
    private static final Map<String, List<String>> COMMANDS = Map.of(
            "mgmtdev", List.of("show", "list"),
            "dev", List.of("show", "list", "add", "del", "config", "vstats", "set"));
    /** vdpactl's own subcommand names under each object (kept as they are, whatever vdpa would match). */
    private static final Map<String, Set<String>> OWN = Map.of(
            "mgmtdev", Set.of("list", "ls", "show", "help"),
            "dev", Set.of("list", "ls", "show", "add", "del", "config", "vstats", "set", "help"));
    /** Options of the root command (inherited by every subcommand) that take the next word as value. */
    private static final Set<String> WITH_VALUE = Set.of("--backend", "--fake-state", "--fake-faults", "--fake-kernel",
            "--fake-clock", "-b", "--batch");

    private IprouteForms() {
    }

    /** {@code args} with iproute2's forms in vdpactl's words (the same array when there is nothing to rewrite). */
    static String[] rewrite(String[] args) {
        List<String> out = new ArrayList<>(List.of(args));
        int object = nextWord(out, 0);
        if (object < 0) {
            return args;
        }
        String word = out.get(object);
        if (!Commands.names().contains(word) && !word.equals("help")) {
            String matched = firstMatch(word, OBJECTS);
            if (matched == null) {
                return args;
            }
            out.set(object, matched);
        }
        String obj = out.get(object);
        if (!COMMANDS.containsKey(obj)) {
            return args;
        }
        int command = nextWord(out, object + 1);
        if (command < 0) {
            return out.toArray(String[]::new);
        }
        String cmd = out.get(command);
        if (!OWN.get(obj).contains(cmd)) {
            String matched = matches(cmd, "help") ? "help" : firstMatch(cmd, COMMANDS.get(obj));
            if (matched != null) {
                out.set(command, matched);
            }
        }
        switch (out.get(command)) {
            case "help" -> out.set(command, "--help");
            case "add" -> keywordForm(out, command + 1, true);
            case "set" -> keywordForm(out, command + 1, false);
            case "config", "vstats" -> {
                int sub = nextWord(out, command + 1);
                // dev config s NAME: "show" abbreviated, as dev config show NAME (the commands take the word itself)
                if (sub >= 0 && !out.get(sub).equals("show") && matches(out.get(sub), "show") && nextWord(out, sub + 1) >= 0) {
                    out.set(sub, "show");
                } else if (sub >= 0 && out.get(sub).equals("help")) {
                    out.set(sub, "--help");
                }
            }
            default -> {
            }
        }
        return out.toArray(String[]::new);
    }

    /**
     * {@code name N mgmtdev M mac X ...} from {@code from} on, as {@code N --mgmtdev M --mac X ...}, when every word
     * there is a keyword followed by its value ({@code add}: name and mgmtdev, mac, mtu, max_vqp, device_features;
     * {@code set}: name and mac).
     */
    private static void keywordForm(List<String> out, int from, boolean add) {
        List<String> words = out.subList(from, out.size());
        if (words.size() < 2 || words.size() % 2 != 0) {
            return;
        }
        List<String> options = new ArrayList<>();
        String name = null;
        for (int i = 0; i < words.size(); i += 2) {
            String k = words.get(i);
            String v = words.get(i + 1);
            if (v.startsWith("-")) {
                return; // an option of vdpactl's where a value would be: not iproute2's form
            }
            String option;
            if (matches(k, "name")) {
                option = null;
            } else if (add && matches(k, "mgmtdev")) {
                option = "--mgmtdev";
            } else if (k.equals("mac")) {
                option = "--mac";
            } else if (add && k.equals("mtu")) {
                option = "--mtu";
            } else if (add && matches(k, "max_vqp")) {
                option = "--max-vqp";
            } else if (add && k.equals("device_features")) {
                option = "--features";
            } else {
                return; // not iproute2's form: leave every word to picocli
            }
            if (option == null) {
                if (name != null) {
                    return;
                }
                name = v;
            } else {
                options.add(option);
                options.add(v);
            }
        }
        if (name == null) {
            return;
        }
        words.clear();
        words.add(name);
        words.addAll(options);
    }

    /** The index of the first word at or after {@code from} that is not an option or an option's value, or -1. */
    private static int nextWord(List<String> args, int from) {
        for (int i = from; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("--")) {
                return -1;
            }
            if (WITH_VALUE.contains(a)) {
                i++;
            } else if (!a.startsWith("-") || a.equals("-")) {
                return i;
            }
        }
        return -1;
    }

    private static String firstMatch(String word, List<String> candidates) {
        for (String c : candidates) {
            if (matches(word, c)) {
                return c;
            }
        }
        return null;
    }

    /** iproute2's {@code matches(prefix, string) == 0}: a non-empty prefix of {@code string}. */
    static boolean matches(String prefix, String string) {
        return !prefix.isEmpty() && string.startsWith(prefix);
    }
}
