/**
 * The vhost-vdpa device API: {@link org.vdpactl.vhost.VhostVdpaDevice} opens {@code /dev/vhost-vdpa-N} over
 * any {@link org.vdpactl.sys.Syscalls} and wraps every vhost-vdpa ioctl ({@link org.vdpactl.vhost.VhostIoctl}),
 * the IOTLB message codec and batch planner ({@link org.vdpactl.vhost.IotlbCodec},
 * {@link org.vdpactl.vhost.IotlbBatchPlanner}) and the virtio config-space decoders. Errors carry the ioctl and
 * errno ({@link org.vdpactl.vhost.VhostException}).
 */
package org.vdpactl.vhost;
