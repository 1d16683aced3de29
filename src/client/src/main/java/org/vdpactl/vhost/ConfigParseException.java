package org.vdpactl.vhost;

import org.vdpactl.sys.VdpactlException;

/** {@link DecodeResult#orElseThrow()} of a failed decode. */
public class ConfigParseException extends VdpactlException {
    private final ConfigParseError error;

    public ConfigParseException(ConfigParseError error) {
        super(error.toString());
        this.error = error;
    }

    public ConfigParseError error() {
        return error;
    }
}
