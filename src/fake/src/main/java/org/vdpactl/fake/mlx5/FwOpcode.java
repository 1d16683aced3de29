package org.vdpactl.fake.mlx5;

/**
 * The firmware commands the mlx5 vDPA driver issues. {@link #throttled()} marks the
 * *_GENERAL_OBJECT opcodes that mlx5_core limits to {@code throttleSlots} outstanding commands.
 */
public enum FwOpcode {
    QUERY_HCA_CAP,
    CREATE_GENERAL_OBJECT(true),
    MODIFY_GENERAL_OBJECT(true),
    QUERY_GENERAL_OBJECT(true),
    DESTROY_GENERAL_OBJECT(true),
    CREATE_MKEY,
    DESTROY_MKEY,
    CREATE_CQ,
    DESTROY_CQ,
    CREATE_QP,
    DESTROY_QP,
    QP_2RST,
    RST2INIT_QP,
    INIT2RTR_QP,
    RTR2RTS_QP,
    CREATE_UMEM,
    DESTROY_UMEM,
    CREATE_RQT,
    MODIFY_RQT,
    DESTROY_RQT,
    CREATE_TIR,
    DESTROY_TIR,
    CREATE_TIS,
    DESTROY_TIS,
    CREATE_FLOW_TABLE,
    DESTROY_FLOW_TABLE,
    CREATE_FLOW_GROUP,
    DESTROY_FLOW_GROUP,
    SET_FLOW_TABLE_ENTRY,
    DELETE_FLOW_TABLE_ENTRY,
    QUERY_VPORT_STATE,
    QUERY_NIC_VPORT_CONTEXT,
    SET_L2_TABLE_ENTRY,
    DELETE_L2_TABLE_ENTRY,
    ALLOC_UAR,
    DEALLOC_UAR,
    CREATE_UCTX,
    DESTROY_UCTX,
    ALLOC_PD,
    DEALLOC_PD,
    ALLOC_TRANSPORT_DOMAIN,
    DEALLOC_TRANSPORT_DOMAIN,
    QUERY_SPECIAL_CONTEXTS;

    private final boolean throttled;

    FwOpcode() {
        this(false);
    }

    FwOpcode(boolean throttled) {
        this.throttled = throttled;
    }

    /** True for the opcodes limited to the throttle slots (general objects: VQs, counters). */
    public boolean throttled() {
        return throttled;
    }
}
