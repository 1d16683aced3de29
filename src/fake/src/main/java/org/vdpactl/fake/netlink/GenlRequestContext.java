package org.vdpactl.fake.netlink;


/**
 * What a fake genetlink handler gets ({@code struct genl_info}): the request headers, its
 * validated attributes, the extack to fill, and who asked.
 *
 * @param caller     the sending process
 * @param portId     the sender's port id (snd_portid: where replies go)
 * @param header     the request's nlmsghdr
 * @param genl       the request's genlmsghdr
 * @param attributes the validated attribute table
 * @param extack     the request's extended ACK
 * @param socketInInitialNetns whether the sending socket lives in the initial network namespace
 */
public record GenlRequestContext(NetlinkCaller caller, int portId, NlMsgHeader header, GenlMsgHeader genl,
                                 RequestAttributes attributes, Extack extack, boolean socketInInitialNetns) {

    public int seq() {
        return header.seq();
    }
}
