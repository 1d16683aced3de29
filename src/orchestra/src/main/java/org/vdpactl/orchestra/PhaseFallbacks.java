package org.vdpactl.orchestra;

import java.util.Collection;
import java.util.EnumMap;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which phases ran a fallback instead of SUSPEND, GET_VRING_BASE or RESUME (see {@link StopFallback}),
 * read from the calls themselves: a fallback call names its fallback in brackets, e.g.
 * {@code "VHOST_VDPA_SET_STATUS 0 [fallback: reset instead of suspend]"}.
 */
public final class PhaseFallbacks {
    private static final Pattern MARK = Pattern.compile("\\[(fallback: [^\\]]+)]");

    private PhaseFallbacks() {
    }

    /** Phase → the fallbacks its calls used, phases in enum order, marks sorted. */
    public static Map<Phase, SortedSet<String>> of(Collection<Span> spans) {
        Map<Phase, SortedSet<String>> out = new EnumMap<>(Phase.class);
        for (Span s : spans) {
            Matcher m = MARK.matcher(s.call());
            if (m.find()) {
                out.computeIfAbsent(s.phase(), p -> new TreeSet<>()).add(m.group(1));
            }
        }
        return out;
    }

    /** "reset instead of suspend; ..." for a phase, or null when it ran no fallback. */
    public static String describe(Collection<Span> spans, Phase phase) {
        var marks = of(spans).get(phase);
        return marks == null ? null : String.join("; ", marks);
    }
}
