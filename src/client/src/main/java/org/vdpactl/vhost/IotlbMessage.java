package org.vdpactl.vhost;

/**
 * One IOTLB message as written to a vhost-vdpa fd ({@code struct vhost_msg_v2}, 72 bytes).
 * Fields are raw so that tests can write what the kernel must reject (unknown types, any perm).
 *
 * @param version    {@link IotlbCodec#V1} or {@link IotlbCodec#V2} (top-level {@code type} field)
 * @param asid       address space id (V2 only; the kernel ignores it unless IOTLB_ASID is acked)
 * @param type       {@code vhost_iotlb_msg.type} code (see {@link IotlbMessageType})
 * @param iova       I/O virtual address
 * @param size       length in bytes
 * @param uaddr      host virtual address backing the IOVA
 * @param perm       {@code vhost_iotlb_msg.perm} code (see {@link IotlbPermission})
 */
public record IotlbMessage(int version, int asid, int type, long iova, long size, long uaddr, int perm) {

    public static IotlbMessage update(int asid, long iova, long size, long uaddr, IotlbPermission perm) {
        return new IotlbMessage(IotlbCodec.V2, asid, IotlbMessageType.UPDATE.code(), iova, size, uaddr, perm.code());
    }

    public static IotlbMessage invalidate(int asid, long iova, long size) {
        return new IotlbMessage(IotlbCodec.V2, asid, IotlbMessageType.INVALIDATE.code(), iova, size, 0, 0);
    }

    public static IotlbMessage batchBegin(int asid) {
        return new IotlbMessage(IotlbCodec.V2, asid, IotlbMessageType.BATCH_BEGIN.code(), 0, 0, 0, 0);
    }

    public static IotlbMessage batchEnd(int asid) {
        return new IotlbMessage(IotlbCodec.V2, asid, IotlbMessageType.BATCH_END.code(), 0, 0, 0, 0);
    }

    /** The same message with another ASID. */
    public IotlbMessage withAsid(int newAsid) {
        return new IotlbMessage(version, newAsid, type, iova, size, uaddr, perm);
    }

    /** The same message in V1 format (no ASID on the wire). */
    public IotlbMessage asV1() {
        return new IotlbMessage(IotlbCodec.V1, 0, type, iova, size, uaddr, perm);
    }

    /** The known type, or null. */
    public IotlbMessageType messageType() {
        return IotlbMessageType.of(type);
    }

    /** "UPDATE asid=0 iova=0x0 size=0x1000 uaddr=0x7f.. perm=RW". */
    @Override
    public String toString() {
        IotlbMessageType t = messageType();
        String name = t != null ? t.name() : "type " + type;
        StringBuilder sb = new StringBuilder(name).append(" asid=").append(asid);
        if (t == IotlbMessageType.UPDATE || t == IotlbMessageType.INVALIDATE || t == null) {
            sb.append(" iova=0x").append(Long.toHexString(iova)).append(" size=0x").append(Long.toHexString(size));
        }
        if (t == IotlbMessageType.UPDATE || t == null) {
            IotlbPermission p = IotlbPermission.of(perm);
            sb.append(" uaddr=0x").append(Long.toHexString(uaddr)).append(" perm=").append(p != null ? p.name() : perm);
        }
        if (version != IotlbCodec.V2) {
            sb.append(" (v").append(version).append(')');
        }
        return sb.toString();
    }
}
