package org.vdpactl.sys;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;

/**
 * The keys of vdpactl's input files ({@code --memory-layout}, {@code --fake-faults}) are snake_case, as in every
 * document vdpactl prints, so that what one command prints another reads back. Earlier releases read camelCase
 * keys ({@code pageSize}, {@code delayMs}); those files keep working: this renames such keys, and refuses an
 * object that gives both spellings of one key (which one would win is not obvious to the person who wrote it).
 */
public final class InputKeys {
    private InputKeys() {
    }

    /**
     * {@code n} with each key of {@code earlier} (camelCase -> snake_case) renamed to its snake_case name; {@code n}
     * itself when it has none of them.
     *
     * @throws IllegalArgumentException when both spellings of a key are given
     */
    public static JsonNode snakeCase(JsonNode n, Map<String, String> earlier) {
        if (n == null || !n.isObject() || earlier.keySet().stream().noneMatch(n::has)) {
            return n;
        }
        ObjectNode copy = n.deepCopy();
        earlier.forEach((camel, snake) -> {
            if (copy.has(camel)) {
                if (copy.has(snake)) {
                    throw new IllegalArgumentException("both \"" + camel + "\" and \"" + snake + "\" given (\"" + camel
                            + "\" is the earlier spelling of \"" + snake + "\")");
                }
                copy.set(snake, copy.remove(camel));
            }
        });
        return copy;
    }
}
