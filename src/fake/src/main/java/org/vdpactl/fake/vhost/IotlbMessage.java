package org.vdpactl.fake.vhost;

/**
 * One IOTLB message as vhost_chr_write_iter hands it to the driver's msg_handler: the address
 * space (0 unless IOTLB_ASID is acked) and the {@code struct vhost_iotlb_msg} fields.
 */
record IotlbMessage(int asid, int type, long iova, long size, long uaddr, int perm) {
}
