package org.vdpactl.cli.mgmt;

import java.util.ArrayList;
import java.util.List;

/**
 * iproute2's {@code vdpa} word forms where they do not clash with vdpactl's own: a leading
 * {@code show} ({@code dev config show NAME}, {@code dev vstats show NAME}) and keyword arguments
 * ({@code qidx N}). A device literally named "show" is still reachable: {@code dev config show show}.
 */
final class IprouteWords {
    private IprouteWords() {
    }

    /** The words without iproute2's leading "show". */
    static List<String> withoutShow(List<String> words) {
        if (!words.isEmpty() && words.getFirst().equals("show")) {
            return words.subList(1, words.size());
        }
        return words;
    }

    /** The value after {@code keyword} in {@code words} and both removed from them, or null when absent. */
    static String take(List<String> words, String keyword) {
        int i = words.indexOf(keyword);
        if (i < 0) {
            return null;
        }
        if (i + 1 >= words.size()) {
            throw new IllegalArgumentException(keyword + " needs a value (" + keyword + " N)");
        }
        String v = words.get(i + 1);
        words.remove(i + 1);
        words.remove(i);
        return v;
    }

    static List<String> mutable(List<String> words) {
        return new ArrayList<>(words);
    }
}
