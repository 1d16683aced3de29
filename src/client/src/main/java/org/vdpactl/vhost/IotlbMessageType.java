package org.vdpactl.vhost;

import org.vdpactl.ffi.gen.vhost.vhost_h;

/** {@code vhost_iotlb_msg.type}. vhost-vdpa handles UPDATE, INVALIDATE, BATCH_BEGIN and BATCH_END. */
public enum IotlbMessageType {
    MISS(vhost_h.VHOST_IOTLB_MISS()),
    UPDATE(vhost_h.VHOST_IOTLB_UPDATE()),
    INVALIDATE(vhost_h.VHOST_IOTLB_INVALIDATE()),
    ACCESS_FAIL(vhost_h.VHOST_IOTLB_ACCESS_FAIL()),
    BATCH_BEGIN(vhost_h.VHOST_IOTLB_BATCH_BEGIN()),
    BATCH_END(vhost_h.VHOST_IOTLB_BATCH_END());

    private final int code;

    IotlbMessageType(int code) {
        this.code = code;
    }

    /** The u8 written to the message. */
    public int code() {
        return code;
    }

    /** The type with this code, or null. */
    public static IotlbMessageType of(int code) {
        for (IotlbMessageType t : values()) {
            if (t.code == code) {
                return t;
            }
        }
        return null;
    }
}
