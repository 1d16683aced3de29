package org.vdpactl.fake.mlx5;

/**
 * What a kernel version does differently (docs/spec/mlx5-model.md §4.3): the presets are these
 * flags plus the same {@link Mlx5Params}, so a preset is data, not a code branch.
 *
 * @param precreateVqs          6.11: blank HW VQs at dev_add/reset; DRIVER_OK only modifies them; §3.3 re-create rules
 * @param activeVqsOnly         6.11: resume and change_map's suspend iterate the A active VQs (≤6.10: all V)
 * @param vqErrorsReturned      6.11: suspend/resume return VQ command errors (≤6.10 always return 0
 *                              and resume silently skips VQs that are not SUSPEND); §1.7, §1.8
 * @param asyncVqCommands       6.12: VQ modify/query as async batches, range gated by its first VQ
 * @param keepNotifierOnSuspend 6.12: suspend keeps the link notifier (no RCU grace period)
 * @param parallelMkeyCreate    6.12: direct MKEYs created in one async batch
 * @param parallelMkeyDestroy   6.12: direct MKEYs destroyed in one async batch
 * @param deferredMrDestroy     6.12: an MR's last reference drop queues it for the GC (≥ mrGcDelayMs later)
 * @param vqsHoldMrRefs         v6.12-era code (§2.4): each VQ object references the MR of its MKEY, so an old
 *                              MR lives until no VQ uses it. Off in every preset, and that choice is FITTED,
 *                              not derived: the source reading says on for v6.12, but the published "Parallel
 *                              MKEY ops" to "Deferred deletion" step of window #2 (747 ≈ 4 × 186 ms) only
 *                              exists if the unmap releases the MR inside stop-and-copy. It changes none of
 *                              the ten compared rows (6.12's release is off the path either way; pre-6.12 has
 *                              no references), only where 6.12's deferred GC work is queued
 *                              (docs/mlx5-model-impl.md "Fit versus prediction")
 * @param reclaimCapPages       mlx5_core: pages per MANAGE_PAGES reclaim request ({@link Long#MAX_VALUE} = no cap)
 * @param mapPerAsid            one MR per ASID, and a suspended VQ can be resumed when the FW has freeze_to_rdy:
 *                              set_map suspends, swaps the MR and resumes (off: 6.1, whose is_valid_state_change never
 *                              allows SUSPEND → RDY (mlx5_vnet.c 6.1.192 l. 1123-1135), and whose single data MR, once
 *                              it exists, makes every set_map of any ASID destroy and re-create every VQ, with no MKEY
 *                              for the CVQ's ASID (core/mr.c 6.1.192 l. 613-630, 542-579; mlx5_vnet.c l. 2400-2431))
 * @param onePairAtFeatures     SET_FEATURES leaves one queue pair active until VQ_PAIRS_SET (off: 6.1's
 *                              mlx5_vdpa_set_driver_features activates every provisioned pair with MQ, mlx5_vnet.c
 *                              6.1.192 l. 2290-2295, so SUSPEND stops 2 × pairs VQs and a first VQ_PAIRS_SET shrinks)
 */
public record Mlx5Features(boolean precreateVqs, boolean activeVqsOnly, boolean vqErrorsReturned,
        boolean asyncVqCommands, boolean keepNotifierOnSuspend, boolean parallelMkeyCreate,
        boolean parallelMkeyDestroy, boolean deferredMrDestroy, boolean vqsHoldMrRefs, long reclaimCapPages,
        boolean mapPerAsid, boolean onePairAtFeatures) {

    /** No reclaim cap (before "net/mlx5: Reclaim max 50K pages at once"). */
    public static final long UNLIMITED = Long.MAX_VALUE;

    public Mlx5Features {
        if (reclaimCapPages < 1) {
            throw new IllegalArgumentException("reclaimCapPages must be ≥ 1");
        }
    }

    /** 6.1: serial commands, no SUSPEND → RDY, one data MR whose changes re-create the VQs, every pair at SET_FEATURES. */
    public static final Mlx5Features V61 =
            new Mlx5Features(false, false, false, false, false, false, false, false, false, UNLIMITED, false, false);

    /** ≤ v6.10: every FW command synchronous and serial. */
    public static final Mlx5Features PRE_612 =
            new Mlx5Features(false, false, false, false, false, false, false, false, false, UNLIMITED, true, true);

    /** v6.11: pre-created VQs, serial commands. */
    public static final Mlx5Features V611 =
            new Mlx5Features(true, true, true, false, false, false, false, false, false, UNLIMITED, true, true);

    /** v6.12+: parallel suspend/resume and MKEY operations, deferred MR deletion, 50K reclaim cap. */
    public static final Mlx5Features V612 =
            new Mlx5Features(true, true, true, true, true, true, true, true, false, 50_000, true, true);

    public Mlx5Features withParallelMkeys(boolean create, boolean destroy) {
        return new Mlx5Features(precreateVqs, activeVqsOnly, vqErrorsReturned, asyncVqCommands,
                keepNotifierOnSuspend, create, destroy, deferredMrDestroy, vqsHoldMrRefs, reclaimCapPages, mapPerAsid,
                onePairAtFeatures);
    }

    public Mlx5Features withDeferredMrDestroy(boolean deferred) {
        return new Mlx5Features(precreateVqs, activeVqsOnly, vqErrorsReturned, asyncVqCommands,
                keepNotifierOnSuspend, parallelMkeyCreate, parallelMkeyDestroy, deferred, vqsHoldMrRefs,
                reclaimCapPages, mapPerAsid, onePairAtFeatures);
    }

    public Mlx5Features withVqsHoldMrRefs(boolean hold) {
        return new Mlx5Features(precreateVqs, activeVqsOnly, vqErrorsReturned, asyncVqCommands,
                keepNotifierOnSuspend, parallelMkeyCreate, parallelMkeyDestroy, deferredMrDestroy, hold,
                reclaimCapPages, mapPerAsid, onePairAtFeatures);
    }
}
