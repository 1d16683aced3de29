package org.vdpactl.fake.mlx5;

/**
 * Firmware capabilities of one function (docs/spec/mlx5-model.md §6.2); they gate ops and
 * commands, not timings.
 *
 * @param resumable         {@code freeze_to_rdy_supported}: SUSPEND → RDY allowed and the {@code .resume} op exists
 * @param descGroupMkey     {@code desc_group_mkey_supported}: a third VQ group (data descriptors) exists
 * @param umemUid0          {@code umem_uid_0}: no UCTX; a DMA MR is installed in ASID 0 at dev_add and clean reset
 * @param vqCounters        the virtio_q_counters object type exists (one more create/destroy per VQ)
 */
public record Mlx5Capabilities(boolean resumable, boolean descGroupMkey, boolean umemUid0, boolean vqCounters) {

    /** A ConnectX-6 Dx class function with current firmware. */
    public static final Mlx5Capabilities DEFAULT = new Mlx5Capabilities(true, true, true, true);

    /** The same without {@code freeze_to_rdy_supported} ("old firmware", §5 #8). */
    public Mlx5Capabilities withoutResume() {
        return new Mlx5Capabilities(false, descGroupMkey, umemUid0, vqCounters);
    }

    /** Number of VQ groups (data, CVQ, and data descriptors when supported). */
    public int groups() {
        return descGroupMkey ? 3 : 2;
    }
}
