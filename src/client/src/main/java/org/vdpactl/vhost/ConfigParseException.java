package org.vdpactl.vhost;

/** {@link DecodeResult#orElseThrow()} of a failed decode. */
public class ConfigParseException extends IllegalArgumentException {
    private final ConfigParseError error;

    public ConfigParseException(ConfigParseError error) {
        super(error.toString());
        this.error = error;
    }

    public ConfigParseError error() {
        return error;
    }
}
