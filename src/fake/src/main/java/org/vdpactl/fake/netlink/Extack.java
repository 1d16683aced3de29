package org.vdpactl.fake.netlink;

import static org.vdpactl.ffi.gen.netlink.netlink_h.*;


/**
 * The fake's {@code struct netlink_ext_ack} of one request: the message text, the offending
 * attribute (as a byte offset from the request's nlmsghdr) and its policy. Later settings
 * overwrite earlier ones, as NL_SET_ERR_MSG does.
 */
public final class Extack {
    private String message;
    private Integer badAttrOffset;
    private AttrPolicy policy;

    public void message(String text) {
        this.message = text;
    }

    /** NL_SET_ERR_MSG_ATTR. */
    public void atAttribute(String text, int offset) {
        this.message = text;
        this.badAttrOffset = offset;
    }

    /** NL_SET_ERR_MSG_ATTR_POL. */
    public void atAttribute(String text, int offset, AttrPolicy pol) {
        atAttribute(text, offset);
        this.policy = pol;
    }

    public String message() {
        return message;
    }

    public boolean isEmpty() {
        return message == null && badAttrOffset == null && policy == null;
    }

    /**
     * Writes the TLVs of netlink_ack_tlv_fill: MSG always; OFFS and POLICY only for errors.
     * Returns whether anything was written (the header then gets NLM_F_ACK_TLVS).
     */
    boolean writeTlvs(SkBuff w, boolean error) {
        boolean any = false;
        if (message != null) {
            w.putString(NLMSGERR_ATTR_MSG(), message);
            any = true;
        }
        if (!error) {
            return any;
        }
        if (badAttrOffset != null) {
            w.putU32(NLMSGERR_ATTR_OFFS(), badAttrOffset);
            any = true;
        }
        if (policy != null) {
            policy.writeNest(w);
            any = true;
        }
        return any;
    }
}
