package org.vdpactl.fake.state;

import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Who holds the state lock: its holder writes "pid N (command) ..." into the lock file ({@link StateLockFile#content}). */
final class HolderInfo {
    private HolderInfo() {
    }

    /** "pid 1234 (vdpactl dev add x)" from the lock file's content, without our bookkeeping. */
    static String describe(String content) {
        if (content == null || content.isEmpty()) {
            return "another process";
        }
        int thread = content.indexOf(" thread ");
        return thread > 0 ? content.substring(0, thread) : content;
    }

    /** What a process runs, shortened to "vdpactl ARGS" when it is this tool's jar or main class. */
    static String commandOf(ProcessHandle process) {
        List<String> args = process.info().arguments().map(List::of).orElse(List.of());
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if ((a.equals("-jar") && i + 1 < args.size() && args.get(i + 1).contains("vdpactl")) || a.equals("org.vdpactl.cli.Main")) {
                int from = a.equals("-jar") ? i + 2 : i + 1;
                return "vdpactl " + String.join(" ", args.subList(from, args.size())).replace('\n', ' ');
            }
        }
        return process.info().command().map(c -> Path.of(c).getFileName().toString()).orElse("unknown command");
    }

    /** The pid a holder wrote ("pid 1234 (...)"), or {@link LockHolders#NONE}. */
    static long pidOf(String content) {
        Matcher m = Pattern.compile("^pid (\\d+) ").matcher(content);
        return m.find() ? Long.parseLong(m.group(1)) : LockHolders.NONE;
    }
}
