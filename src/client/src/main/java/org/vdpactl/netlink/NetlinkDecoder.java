package org.vdpactl.netlink;

import static org.vdpactl.netlink.NetlinkAbi.*;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import org.vdpactl.netlink.NetlinkMessage.ControlMessage;
import org.vdpactl.netlink.NetlinkMessage.DoneMessage;
import org.vdpactl.netlink.NetlinkMessage.ErrorMessage;
import org.vdpactl.netlink.NetlinkMessage.GenlMessage;

/**
 * Splits a received datagram into messages and decodes each one (the layered style of
 * rust-netlink's netlink-packet-core: nlmsghdr, then the type-specific payload, then attributes).
 * Works on heap and native segments alike. Bad input only ever yields a {@link NetlinkParseException}.
 */
public final class NetlinkDecoder {
    private static final ValueLayout.OfInt S32 = ValueLayout.JAVA_INT_UNALIGNED;

    private NetlinkDecoder() {
    }

    /** Every message of a datagram, in order. */
    public static List<NetlinkMessage> decode(MemorySegment datagram) {
        List<NetlinkMessage> out = new ArrayList<>(4);
        long size = datagram.byteSize();
        long pos = 0;
        while (size - pos >= NLMSG_HDRLEN) {
            NetlinkHeader h = NetlinkHeader.read(datagram, pos);
            long len = h.unsignedLength();
            if (len < NLMSG_HDRLEN || len > size - pos) {
                throw new NetlinkParseException("message at byte " + pos + " has nlmsg_len " + len + " but "
                        + (size - pos) + " bytes remain");
            }
            out.add(decodeOne(datagram, pos, h));
            pos += nlmsgAlign((int) len);
        }
        return out;
    }

    /** Decodes a datagram held in a byte array. */
    public static List<NetlinkMessage> decode(byte[] datagram) {
        return decode(MemorySegment.ofArray(datagram));
    }

    private static NetlinkMessage decodeOne(MemorySegment d, long start, NetlinkHeader h) {
        long payload = start + NLMSG_HDRLEN;
        long payloadLen = h.unsignedLength() - NLMSG_HDRLEN;
        if (h.type() == NLMSG_ERROR) {
            return decodeError(d, payload, payloadLen, h);
        }
        if (h.type() == NLMSG_DONE) {
            int status = payloadLen >= Integer.BYTES ? d.get(S32, payload) : 0;
            ExtAck ack = ExtAck.NONE;
            if ((h.flags() & NLM_F_ACK_TLVS) != 0 && payloadLen > Integer.BYTES) {
                ack = ExtAck.parse(Attributes.parse(d, payload + Integer.BYTES, payloadLen - Integer.BYTES));
            }
            return new DoneMessage(h, status, ack);
        }
        if (h.type() < NLMSG_MIN_TYPE) {
            return new ControlMessage(h);
        }
        if (payloadLen < GENL_HDRLEN) {
            throw new NetlinkParseException("message of type " + h.type() + " is " + h.unsignedLength()
                    + " bytes, too short for a genl header");
        }
        GenlHeader g = GenlHeader.read(d, payload);
        return new GenlMessage(h, g, Attributes.parse(d, payload + GENL_HDRLEN, payloadLen - GENL_HDRLEN));
    }

    private static ErrorMessage decodeError(MemorySegment d, long payload, long payloadLen, NetlinkHeader h) {
        if (payloadLen < NLMSGERR_SIZE) {
            throw new NetlinkParseException("NLMSG_ERROR of " + h.unsignedLength() + " bytes is shorter than nlmsgerr");
        }
        int error = d.get(NLMSGERR_ERROR, payload + NLMSGERR_ERROR_OFFSET);
        NetlinkHeader request = NetlinkHeader.read(d, payload + NLMSGERR_MSG_OFFSET);
        long after = payload + NLMSGERR_SIZE;
        long end = payload + payloadLen;
        byte[] requestPayload = new byte[0];
        if ((h.flags() & NLM_F_CAPPED) == 0) {
            // the kernel appended the request's payload, padded to NLMSG_ALIGN
            long echoed = Math.max(0, request.unsignedLength() - NLMSG_HDRLEN);
            long available = end - after;
            long copied = Math.min(echoed, available);
            requestPayload = d.asSlice(after, copied).toArray(ValueLayout.JAVA_BYTE);
            after += Math.min(available, (echoed + NLMSG_ALIGNTO - 1) & ~(long) (NLMSG_ALIGNTO - 1));
        }
        ExtAck ack = ExtAck.NONE;
        if ((h.flags() & NLM_F_ACK_TLVS) != 0 && end > after) {
            ack = ExtAck.parse(Attributes.parse(d, after, end - after));
        }
        return new ErrorMessage(h, error, request, requestPayload, ack);
    }
}
