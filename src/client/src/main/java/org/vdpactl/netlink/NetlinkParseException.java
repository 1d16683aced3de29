package org.vdpactl.netlink;

/**
 * Bytes that are not a well-formed netlink message (errno EPROTO, "Protocol error"): a length
 * field pointing past the datagram, an attribute shorter than its header, a missing attribute a
 * reply must carry. The decoder throws nothing else for bad input.
 */
public final class NetlinkParseException extends NetlinkException {
    /** EPROTO: libc has no symbol for it in the generated bindings. */
    public static final int EPROTO = 71;

    public NetlinkParseException(String what) {
        super("decode netlink message", EPROTO, ExtAck.NONE, what, null);
    }
}
