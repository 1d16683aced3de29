package org.vdpactl.fake.mlx5;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Builds the command sequences of the driver's building blocks (docs/spec/mlx5-model.md §1.1,
 * B1–B4, B7) with the service times of {@link Mlx5Params}.
 */
final class FwCommands {
    /** Bytes per MTT entry in create_mkey_in (two per 16-byte octword). */
    private static final int MTT_BYTES = 8;
    /** Bytes per KLM entry; the KLM list is padded to a multiple of four entries. */
    private static final int KLM_BYTES = 16;

    private final Mlx5Params p;
    /*
     * The per-VQ commands never change for a device (its parameters are fixed): each is built once,
     * on first use, instead of once per op with its strings (a reset re-creates every VQ).
     */
    private final PerVq<List<FwCommand>> created = new PerVq<>();
    private final PerVq<List<FwCommand>> createdWithCounters = new PerVq<>();
    private final PerVq<List<FwCommand>> destroyed = new PerVq<>();
    private final PerVq<List<FwCommand>> destroyedWithCounters = new PerVq<>();
    private final PerVq<FwCommand> queries = new PerVq<>();
    private final PerVq<FwCommand> modifies = new PerVq<>();
    private static final int STATES = VqState.values().length;
    /** Modify variants per VQ: from-state × to-state × fields pending or not. */
    private static final int MODIFY_VARIANTS = STATES * STATES * 2;
    /** One instance per parameter set: the commands a preset's devices issue are the same for all of them. */
    private static final ConcurrentHashMap<Mlx5Params, FwCommands> SHARED =
            new ConcurrentHashMap<>();

    FwCommands(Mlx5Params p) {
        this.p = p;
    }

    /** The commands of {@code p}, shared by every device with these parameters (they never change). */
    static FwCommands of(Mlx5Params p) {
        return SHARED.computeIfAbsent(p, FwCommands::new);
    }

    /** B1 without the optional RDY modify: CQ, QP pair and its connection, counters, umems, the VQ object. */
    List<FwCommand> vqCreate(int vq, boolean counters) {
        PerVq<List<FwCommand>> kept = counters ? createdWithCounters : created;
        List<FwCommand> l = kept.get(vq);
        return l != null ? l : kept.put(vq, buildVqCreate(vq, counters));
    }

    private List<FwCommand> buildVqCreate(int vq, boolean counters) {
        List<FwCommand> l = new ArrayList<>();
        l.add(new FwCommand(FwOpcode.CREATE_CQ, "cq of vq " + vq, p.createCqMs(), 0));
        l.add(new FwCommand(FwOpcode.CREATE_QP, "fw qp of vq " + vq, p.createQpMs(), 0));
        l.add(new FwCommand(FwOpcode.CREATE_QP, "driver qp of vq " + vq, p.createQpMs(), 0));
        FwOpcode[] connect = {FwOpcode.QP_2RST, FwOpcode.QP_2RST, FwOpcode.RST2INIT_QP, FwOpcode.RST2INIT_QP,
                FwOpcode.INIT2RTR_QP, FwOpcode.INIT2RTR_QP, FwOpcode.RTR2RTS_QP};
        for (int i = 0; i < p.qpStateChanges(); i++) {
            l.add(new FwCommand(connect[Math.min(i, connect.length - 1)], "qp of vq " + vq, p.qpStateChangeMs(), 0));
        }
        if (counters) {
            l.add(new FwCommand(FwOpcode.CREATE_GENERAL_OBJECT, "virtio_q_counters " + vq, p.createCountersMs(), 0));
        }
        for (int i = 0; i < p.umemsPerVq(); i++) {
            l.add(new FwCommand(FwOpcode.CREATE_UMEM, "umem " + (i + 1) + " of vq " + vq, p.createUmemMs(), 0));
        }
        l.add(new FwCommand(FwOpcode.CREATE_GENERAL_OBJECT, "virtio_net_q " + vq, p.createVqMs(), 0));
        return List.copyOf(l);
    }

    /** B2 after the VQ is suspended: the VQ object, umems, counters, QPs, CQ. */
    List<FwCommand> vqDestroy(int vq, boolean counters) {
        PerVq<List<FwCommand>> kept = counters ? destroyedWithCounters : destroyed;
        List<FwCommand> l = kept.get(vq);
        return l != null ? l : kept.put(vq, buildVqDestroy(vq, counters));
    }

    private List<FwCommand> buildVqDestroy(int vq, boolean counters) {
        List<FwCommand> l = new ArrayList<>();
        l.add(destroy(FwOpcode.DESTROY_GENERAL_OBJECT, "virtio_net_q " + vq));
        for (int i = 0; i < p.umemsPerVq(); i++) {
            l.add(destroy(FwOpcode.DESTROY_UMEM, "umem " + (i + 1) + " of vq " + vq));
        }
        if (counters) {
            l.add(destroy(FwOpcode.DESTROY_GENERAL_OBJECT, "virtio_q_counters " + vq));
        }
        l.add(destroy(FwOpcode.DESTROY_QP, "driver qp of vq " + vq));
        l.add(destroy(FwOpcode.DESTROY_QP, "fw qp of vq " + vq));
        l.add(destroy(FwOpcode.DESTROY_CQ, "cq of vq " + vq));
        return List.copyOf(l);
    }

    /** B3 create: HCA caps, RQT, TIR, steering for the MAC. */
    List<FwCommand> netCreate() {
        List<FwCommand> l = new ArrayList<>();
        l.add(new FwCommand(FwOpcode.QUERY_HCA_CAP, "umem parameters", p.queryHcaCapMs(), 0));
        l.add(new FwCommand(FwOpcode.CREATE_RQT, "rqt", p.createRqtMs(), 0));
        l.add(new FwCommand(FwOpcode.CREATE_TIR, "tir", p.createTirMs(), 0));
        FwOpcode[] steering = {FwOpcode.CREATE_FLOW_TABLE, FwOpcode.CREATE_FLOW_GROUP, FwOpcode.SET_FLOW_TABLE_ENTRY,
                FwOpcode.CREATE_FLOW_GROUP, FwOpcode.SET_FLOW_TABLE_ENTRY};
        for (int i = 0; i < p.steeringCreateCommands(); i++) {
            l.add(new FwCommand(steering[Math.min(i, steering.length - 1)], "steering", p.steeringCreateMs(), 0));
        }
        return l;
    }

    /** B3 teardown. */
    List<FwCommand> netDestroy() {
        List<FwCommand> l = new ArrayList<>();
        FwOpcode[] steering = {FwOpcode.DELETE_FLOW_TABLE_ENTRY, FwOpcode.DELETE_FLOW_TABLE_ENTRY,
                FwOpcode.DESTROY_FLOW_GROUP, FwOpcode.DESTROY_FLOW_TABLE};
        for (int i = 0; i < p.steeringDestroyCommands(); i++) {
            l.add(destroy(steering[Math.min(i, steering.length - 1)], "steering"));
        }
        l.add(destroy(FwOpcode.DESTROY_TIR, "tir"));
        l.add(destroy(FwOpcode.DESTROY_RQT, "rqt"));
        return l;
    }

    /**
     * B4 MODIFY of one VQ. Its FW time is the state change (→ RDY or → SUSPEND) plus the pending
     * fields (from INIT a full field write, from SUSPEND the extra of §4.2); a modify that changes
     * nothing still costs a minimal command.
     */
    FwCommand vqModify(int vq, VqState from, VqState to, boolean fieldsPending) {
        int key = vq * MODIFY_VARIANTS + (from.ordinal() * STATES + to.ordinal()) * 2 + (fieldsPending ? 1 : 0);
        FwCommand c = modifies.get(key);
        return c != null ? c : modifies.put(key, buildVqModify(vq, from, to, fieldsPending));
    }

    private FwCommand buildVqModify(int vq, VqState from, VqState to, boolean fieldsPending) {
        double s = 0;
        if (from != to) {
            s += to == VqState.SUSPEND ? p.modifySuspendMs() : p.modifyRdyMs();
        }
        if (fieldsPending) {
            s += from == VqState.INIT ? p.modifyFieldsFromInitMs() : p.modifyFieldsFromSuspendMs();
        }
        if (s == 0) {
            s = p.defaultQueryMs();
        }
        String what = from == to ? "fields" : from + " → " + to;
        return new FwCommand(FwOpcode.MODIFY_GENERAL_OBJECT, "virtio_net_q " + vq + " " + what, s, 0);
    }

    FwCommand vqQuery(int vq) {
        FwCommand q = queries.get(vq);
        return q != null ? q : queries.put(vq, buildVqQuery(vq));
    }

    private FwCommand buildVqQuery(int vq) {
        return new FwCommand(FwOpcode.QUERY_GENERAL_OBJECT, "virtio_net_q " + vq, p.queryVqMs(), 0);
    }

    FwCommand rqtModify() {
        return new FwCommand(FwOpcode.MODIFY_RQT, "rqt", p.modifyRqtMs(), 0);
    }

    /** CREATE_MKEY of a direct (MTT) key with {@code mtts} entries. */
    FwCommand directMkeyCreate(long mtts) {
        long octwords = (mtts + 1) / 2;
        return mkeyCreate("direct mkey, " + mtts + " MTTs", p.mkeyFixedInputBytes() + octwords * 2 * MTT_BYTES);
    }

    /** CREATE_MKEY of the indirect (KLM) key over {@code klms} entries. */
    FwCommand indirectMkeyCreate(long klms) {
        long padded = (klms + 3) / 4 * 4;
        return mkeyCreate("indirect mkey, " + klms + " KLMs", p.mkeyFixedInputBytes() + padded * KLM_BYTES);
    }

    /** CREATE_MKEY of the PA-mode DMA MR. */
    FwCommand dmaMkeyCreate() {
        return mkeyCreate("dma mkey", p.mkeyFixedInputBytes());
    }

    /** DESTROY_MKEY of a key translating {@code mtts} MTT entries (0 for KLM and PA keys). */
    FwCommand mkeyDestroy(long mtts) {
        return new FwCommand(FwOpcode.DESTROY_MKEY, mtts == 0 ? "mkey" : "direct mkey, " + mtts + " MTTs",
                p.destroyMkeyMs() + mtts * p.destroyMkeyPerMttNs() / 1e6, 0);
    }

    private FwCommand mkeyCreate(String what, long inputBytes) {
        long blocks = p.inputBlocks(inputBytes);
        return new FwCommand(FwOpcode.CREATE_MKEY, what, p.createMkeyMs() + blocks * p.fwPerBlockUs() / 1_000.0, blocks);
    }

    /**
     * A dev_add resource (§1.3 steps 3–4): what creates or queries it and what frees it at
     * {@code .free} (null for plain queries); UCTX exists only without {@code umem_uid_0}.
     */
    private record DevResource(FwOpcode setUp, FwOpcode free, String what, boolean onlyWithoutUmemUid0) {
        boolean present(boolean umemUid0) {
            return !(onlyWithoutUmemUid0 && umemUid0);
        }
    }

    private static final List<DevResource> DEV_RESOURCES = List.of(
            new DevResource(FwOpcode.QUERY_NIC_VPORT_CONTEXT, null, "mtu", false),
            new DevResource(FwOpcode.QUERY_VPORT_STATE, null, "link state", false),
            new DevResource(FwOpcode.QUERY_NIC_VPORT_CONTEXT, null, "mac", false),
            new DevResource(FwOpcode.SET_L2_TABLE_ENTRY, FwOpcode.DELETE_L2_TABLE_ENTRY, "mpfs mac on the PF", false),
            new DevResource(FwOpcode.ALLOC_UAR, FwOpcode.DEALLOC_UAR, "uar page", false),
            new DevResource(FwOpcode.CREATE_UCTX, FwOpcode.DESTROY_UCTX, "uctx", true),
            new DevResource(FwOpcode.ALLOC_PD, FwOpcode.DEALLOC_PD, "pd", false),
            new DevResource(FwOpcode.QUERY_SPECIAL_CONTEXTS, null, "null mkey", false),
            new DevResource(FwOpcode.ALLOC_TRANSPORT_DOMAIN, FwOpcode.DEALLOC_TRANSPORT_DOMAIN, "transport domain", false),
            new DevResource(FwOpcode.CREATE_TIS, FwOpcode.DESTROY_TIS, "tis", false));

    /** dev_add resources in order (the DMA MR is separate, see {@link #dmaMkeyCreate()}). */
    List<FwCommand> devResources(boolean umemUid0) {
        List<FwCommand> l = new ArrayList<>();
        for (DevResource r : DEV_RESOURCES) {
            if (r.present(umemUid0)) {
                l.add(r.free() == null ? query(r.setUp(), r.what()) : create(r.setUp(), r.what()));
            }
        }
        return l;
    }

    /** The {@code .free} side of {@link #devResources}, in reverse order. */
    List<FwCommand> devResourcesFree(boolean umemUid0) {
        List<FwCommand> l = new ArrayList<>();
        for (DevResource r : DEV_RESOURCES.reversed()) {
            if (r.free() != null && r.present(umemUid0)) {
                l.add(destroy(r.free(), r.what()));
            }
        }
        return l;
    }

    private FwCommand query(FwOpcode op, String what) {
        return new FwCommand(op, what, p.defaultQueryMs(), 0);
    }

    private FwCommand create(FwOpcode op, String what) {
        return new FwCommand(op, what, p.defaultCreateMs(), 0);
    }

    private FwCommand destroy(FwOpcode op, String what) {
        return new FwCommand(op, what, p.defaultDestroyMs(), 0);
    }
}
