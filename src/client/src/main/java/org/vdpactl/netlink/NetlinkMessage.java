package org.vdpactl.netlink;

import java.util.Arrays;

/**
 * One decoded netlink message. Generic netlink payloads become {@link GenlMessage}; the control
 * types the kernel answers with are {@link ErrorMessage} (errors and ACKs), {@link DoneMessage}
 * (end of a dump) and {@link ControlMessage} (NOOP, OVERRUN and other types below 16).
 */
public sealed interface NetlinkMessage {

    NetlinkHeader header();

    /** A generic netlink message: genl header plus attributes. */
    record GenlMessage(NetlinkHeader header, GenlHeader genl, Attributes attributes) implements NetlinkMessage {
        public int cmd() {
            return genl.cmd();
        }
    }

    /**
     * {@code NLMSG_ERROR}: {@code error} is 0 for an ACK, else a negative errno. The echoed request
     * header is always present; its payload only when the kernel did not cap the message.
     */
    record ErrorMessage(NetlinkHeader header, int error, NetlinkHeader request, byte[] requestPayload, ExtAck extack)
            implements NetlinkMessage {
        public ErrorMessage {
            requestPayload = requestPayload.clone();
        }

        public boolean isAck() {
            return error == 0;
        }

        /** The positive errno (0 for an ACK). */
        public int errno() {
            return -error;
        }

        @Override
        public byte[] requestPayload() {
            return requestPayload.clone();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof ErrorMessage e && e.header.equals(header) && e.error == error && e.request.equals(request)
                    && Arrays.equals(e.requestPayload, requestPayload) && e.extack.equals(extack);
        }

        @Override
        public int hashCode() {
            return header.hashCode() * 31 + error;
        }

        @Override
        public String toString() {
            return "NLMSG_ERROR{" + header + ", error=" + error + ", request=" + request + ", payload="
                    + requestPayload.length + "B, " + extack + "}";
        }
    }

    /** {@code NLMSG_DONE}: the end of a dump; {@code status} is 0 or the negative errno a dump ended with. */
    record DoneMessage(NetlinkHeader header, int status, ExtAck extack) implements NetlinkMessage {
    }

    /** NOOP, OVERRUN or another reserved type below NLMSG_MIN_TYPE; the payload is not interpreted. */
    record ControlMessage(NetlinkHeader header) implements NetlinkMessage {
    }
}
