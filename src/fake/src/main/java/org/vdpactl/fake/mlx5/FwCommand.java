package org.vdpactl.fake.mlx5;

/**
 * One firmware command as the latency model sees it.
 *
 * @param opcode      what is sent
 * @param object      what it acts on, for logs and traces (e.g. "virtio_net_q 3 → SUSPEND")
 * @param serviceMs   FW service time {@code s} before jitter
 * @param inputBlocks chained 512-byte input blocks (host issue and FW read costs scale with them)
 */
public record FwCommand(FwOpcode opcode, String object, double serviceMs, long inputBlocks) {
}
