package org.vdpactl.cli.host;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The user a holder process runs as, for "held open by pid N (qemu-system-x86_64, user libvirt-qemu)": whom to
 * ask to close the node. The uid is the owner of /proc/N (the process's real uid); its name comes from getpwuid(3)
 * through JNR-POSIX, so it is the host's passwd, NSS included, as ps shows it.
 */
public final class HolderUsers {
    /** A holder as the library names one: {@code "pid N (command)"}. */
    private static final Pattern HOLDER = Pattern.compile("pid (\\d+) \\((.*)\\)");

    private HolderUsers() {
    }

    /**
     * A holder inside a sentence as the library words it ("held open by pid 7 (qemu)", "pid 7 (java) has held the lock"):
     * the command's parentheses hold no comma or parenthesis, so a holder already named with its user is left alone.
     */
    private static final Pattern HOLDER_IN_TEXT = Pattern.compile("pid (\\d+) \\(([^(),\\n]*)\\)");

    /**
     * {@code text} (a library's message: the open error path's "held open by", the fake state's lock holder) with the user
     * of every holder it names added, as {@link #withUser} does for one; null stays null.
     */
    public static String inText(String text) {
        if (text == null || !text.contains("pid ")) {
            return text;
        }
        return HOLDER_IN_TEXT.matcher(text).replaceAll(m -> Matcher.quoteReplacement(withUser(m.group())));
    }

    /** {@code holder} with its user added ("pid 7 (qemu, user qemu)"); unchanged when the user cannot be told. */
    public static String withUser(String holder) {
        Matcher m = HOLDER.matcher(holder);
        if (!m.matches()) {
            return holder;
        }
        return userOf(Long.parseLong(m.group(1))).map(u -> "pid " + m.group(1) + " (" + m.group(2) + ", user " + u + ")")
                .orElse(holder);
    }

    /** The name of the user process {@code pid} runs as, "uid N" when it has none, or empty when it cannot be read. */
    static Optional<String> userOf(long pid) {
        int uid;
        try {
            uid = (Integer) Files.getAttribute(Path.of("/proc", Long.toString(pid)), "unix:uid");
        } catch (IOException | RuntimeException e) {
            return Optional.empty(); // gone meanwhile, or no /proc: the holder as it was
        }
        return Optional.of(HostPosix.posix().map(p -> p.getpwuid(uid)).map(pw -> pw.getLoginName()).orElse("uid " + uid));
    }
}
