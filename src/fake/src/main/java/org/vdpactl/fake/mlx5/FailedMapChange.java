package org.vdpactl.fake.mlx5;

/**
 * What mlx5_vdpa_change_map leaves in the ASID when re-creating the VQs after the MR swap fails (the FW has no
 * freeze_to_rdy, so the VQs were torn down): each kernel read does it differently, and the caller's set_map fails
 * in all of them (kernels/mlx5-VERSION.json's {@code failedMapChange}).
 */
public enum FailedMapChange {
    /** 6.1.192 mlx5_vnet.c l. 2421-2428 (setup_driver fails, err_setup: mlx5_vdpa_destroy_mr_asid): the ASID has no MR left. */
    DROP_NEW,
    /** 6.12.118 mlx5_vnet.c l. 3062-3080: the old MR, kept alive by a reference, is put back. */
    RESTORE_OLD,
    /** 7.2.13 mlx5_vnet.c l. 3053-3089: the new MR stays installed (no VQs run on it). */
    KEEP_NEW
}
