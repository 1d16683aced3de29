package org.vdpactl.abi.json;

import java.util.List;
import java.util.Map;

/**
 * {@link RecordJson#tree}'s values written back as JSON text: how a tree that was changed (a kernel profile laid
 * over its parent) is bound to a record by the same strict reader as a file.
 */
final class JsonText {
    private JsonText() {
    }

    static String of(Object tree) {
        StringBuilder b = new StringBuilder();
        write(tree, b);
        return b.toString();
    }

    private static void write(Object v, StringBuilder b) {
        if (v == null || v instanceof Boolean || v instanceof Number) {
            b.append(v);
        } else if (v instanceof String s) {
            quote(s, b);
        } else if (v instanceof Map<?, ?> m) {
            b.append('{');
            String sep = "";
            for (Map.Entry<?, ?> e : m.entrySet()) {
                b.append(sep);
                quote((String) e.getKey(), b);
                b.append(':');
                write(e.getValue(), b);
                sep = ",";
            }
            b.append('}');
        } else if (v instanceof List<?> l) {
            b.append('[');
            for (int i = 0; i < l.size(); i++) {
                b.append(i == 0 ? "" : ",");
                write(l.get(i), b);
            }
            b.append(']');
        } else {
            throw new IllegalArgumentException("not a JSON tree value: " + v.getClass().getName());
        }
    }

    private static void quote(String s, StringBuilder b) {
        b.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                b.append('\\').append(c);
            } else if (c < 0x20) {
                b.append(String.format("\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        b.append('"');
    }
}
