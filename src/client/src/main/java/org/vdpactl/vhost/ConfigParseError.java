package org.vdpactl.vhost;

/**
 * Why a config space did not decode.
 *
 * @param kind    the class of problem
 * @param field   the struct field concerned (e.g. "mac"), or null
 * @param needed  bytes needed (TOO_SHORT) or 0
 * @param actual  bytes given
 * @param message human-readable explanation
 */
public record ConfigParseError(Kind kind, String field, int needed, int actual, String message) {
    /** Problem classes. */
    public enum Kind {
        /** No bytes at all (null input). */
        MISSING,
        /** Fewer bytes than the fields every device of the type has. */
        TOO_SHORT,
        /** More bytes than any config space can have (GET_CONFIG_SIZE is small). */
        TOO_LONG
    }

    @Override
    public String toString() {
        return kind + (field != null ? " (" + field + ")" : "") + ": " + message;
    }
}
