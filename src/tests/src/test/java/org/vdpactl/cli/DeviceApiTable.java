package org.vdpactl.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.vdpactl.abi.UapiBackendFeature;
import org.vdpactl.abi.UapiIoctl;

/**
 * docs/device-api.md's table of operations, made from {@code VhostVdpaDevice}'s source: one row per public
 * method whose javadoc begins with the ioctl it issues ("VHOST_VDPA_SUSPEND: …"), with that javadoc and the
 * backend bit that gates the ioctl ({@link UapiIoctl#gate()}). A new operation is documented on the page by
 * its javadoc, with no edit of the page; a javadoc naming an ioctl {@link UapiIoctl} does not have fails.
 */
final class DeviceApiTable {
    static final String SOURCE = "src/client/src/main/java/org/vdpactl/vhost/VhostVdpaDevice.java";

    /** A javadoc comment directly followed by a public instance method's signature (constants have no '('). */
    private static final Pattern METHOD = Pattern.compile(
            "/\\*\\*((?:(?!\\*/).)*)\\*/\\s*public (?!static )[\\w<>\\[\\], ?]+? (\\w+)\\(([^)]*)\\)", Pattern.DOTALL);
    private static final Pattern IOCTL_DOC = Pattern.compile("(VHOST_[A-Z_]+)(?: \\(([^)]*)\\))?: (.*)");

    private DeviceApiTable() {
    }

    /** The block for {@code id} ("operations"). */
    static String block(Path root, String id) throws IOException {
        if (!id.equals("operations")) {
            throw new AssertionError("DeviceApiTable has no block " + id);
        }
        String source = Files.readString(root.resolve(SOURCE));
        List<String> rows = new ArrayList<>(List.of(
                "| ioctl | method | needs the device to offer | what it does, who may call it, errors |",
                "|---|---|---|---|"));
        Matcher m = METHOD.matcher(source);
        while (m.find()) {
            Matcher doc = IOCTL_DOC.matcher(text(m.group(1)));
            if (!doc.matches()) {
                continue; // a helper over other operations (reset, mapAll, ...), or not an ioctl
            }
            UapiIoctl io = UapiIoctl.valueOf(doc.group(1)); // an ioctl the ABI does not know fails here
            UapiBackendFeature gate = io.gate();
            rows.add("| `" + io.name() + "` | `" + m.group(2) + "(" + m.group(3).replaceAll("\\s+", " ") + ")` | "
                    + (gate == null ? "" : "`" + gate.name() + "`") + " | "
                    + (doc.group(2) == null ? "" : "(" + doc.group(2) + ") ") + cell(doc.group(3)) + " |");
        }
        if (rows.size() < 10) {
            throw new AssertionError("found only " + (rows.size() - 2) + " operations in " + SOURCE);
        }
        return String.join("\n", rows);
    }

    /** The javadoc's description as one line: no leading stars, no block tags, inline tags as code spans. */
    private static String text(String javadoc) {
        StringBuilder out = new StringBuilder();
        for (String line : javadoc.split("\n")) {
            String l = line.strip().replaceFirst("^\\*\\s?", "").strip();
            if (l.startsWith("@")) {
                break;
            }
            if (!l.isEmpty()) {
                out.append(out.isEmpty() ? "" : " ").append(l);
            }
        }
        return out.toString()
                .replaceAll("\\{@link #(\\w+)(?:\\([^)]*\\))?}", "`$1`")
                .replaceAll("\\{@link (?:[\\w.]+\\.)?(\\w+)(?:#\\w+(?:\\([^)]*\\))?)?}", "`$1`")
                .replaceAll("\\{@code ([^}]*)}", "`$1`")
                .replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&");
    }

    private static String cell(String s) {
        return s.replace("|", "\\|");
    }
}
