package org.vdpactl.lane.qemu;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.vdpactl.orchestra.Phase;
import org.vdpactl.vhost.IotlbMessageType;
import org.vdpactl.vhost.VhostIoctl;

/**
 * Puts each call of a stop-and-start window into the rehearsal's phase it belongs to, by what the
 * call does (the same rules for QEMU's capture and for vdpactl's): SUSPEND → suspend;
 * GET_VRING_BASE → save state; SET_STATUS 0 → reset; status, feature and vring set-up before
 * DRIVER_OK → configure; an IOTLB batch with an UPDATE → set_map, one with only INVALIDATEs → unmap
 * (an IOTLB message outside a batch, such as a shadow ring's map, belongs to the call before it);
 * SET_STATUS with DRIVER_OK → DRIVER_OK; what follows DRIVER_OK (vring enables, control queue) → CVQ
 * MQ; RESUME → resume. A read (GET_STATUS, GET_CONFIG, ...) belongs to the phase of the call before
 * it.
 */
final class PhaseNormaliser {
    private PhaseNormaliser() {
    }

    /** One call with its phase. */
    record Placed(Phase phase, NodeCall call) {
    }

    static List<Placed> place(List<NodeCall> window) {
        List<Placed> out = new ArrayList<>();
        boolean driverOk = false;
        Phase previous = Phase.SAVE_STATE;
        for (int i = 0; i < window.size(); i++) {
            NodeCall c = window.get(i);
            Phase p;
            if (c.isIotlb() && c.iotlb() != IotlbMessageType.BATCH_BEGIN) {
                // one message outside a batch (a shadow ring's or a CVQ buffer's map): part of the set-up around it
                out.add(new Placed(previous, c));
                continue;
            }
            if (c.isIotlb()) {
                int end = i;
                if (c.iotlb() == IotlbMessageType.BATCH_BEGIN) {
                    while (end < window.size() - 1 && window.get(end).iotlb() != IotlbMessageType.BATCH_END) {
                        end++;
                    }
                }
                boolean update = false;
                for (int j = i; j <= end; j++) {
                    update |= window.get(j).iotlb() == IotlbMessageType.UPDATE;
                }
                p = update ? Phase.MAP : Phase.UNMAP;
                for (int j = i; j <= end; j++) {
                    out.add(new Placed(p, window.get(j)));
                }
                i = end;
                previous = p;
                continue;
            }
            p = switch (c.ioctl()) {
                case VDPA_SUSPEND -> Phase.SUSPEND;
                case VDPA_RESUME -> Phase.RESUME;
                case GET_VRING_BASE -> Phase.SAVE_STATE;
                case VDPA_SET_STATUS -> c.status() == 0 ? Phase.RESET
                        : (c.status() & VirtioPciGuestDriver.STATUS_DRIVER_OK) != 0 ? Phase.DRIVER_OK : Phase.CONFIGURE;
                case SET_FEATURES, SET_VRING_NUM, SET_VRING_BASE, SET_VRING_ADDR, SET_VRING_KICK, SET_VRING_CALL,
                     VDPA_SET_GROUP_ASID, SET_BACKEND_FEATURES, VDPA_SET_CONFIG_CALL, VDPA_SET_VRING_ENABLE ->
                        driverOk ? Phase.CVQ_MQ : Phase.CONFIGURE;
                default -> previous;
            };
            if (c.is(VhostIoctl.VDPA_SET_STATUS)) {
                driverOk = p == Phase.DRIVER_OK;
            }
            out.add(new Placed(p, c));
            previous = p;
        }
        return out;
    }

    /**
     * Per phase, in the order the phases first occur, the call tokens; a run of equal IOTLB tokens
     * becomes one token ("IOTLB UPDATE ×n" is compared as "IOTLB UPDATE": the number of regions
     * depends on the guest's memory layout, not on the client's order).
     */
    static Map<Phase, List<String>> byPhase(List<Placed> placed) {
        Map<Phase, List<String>> m = new LinkedHashMap<>();
        for (Placed p : placed) {
            List<String> tokens = m.computeIfAbsent(p.phase(), k -> new ArrayList<>());
            String t = p.call().token();
            if (p.call().isIotlb() && !tokens.isEmpty() && tokens.get(tokens.size() - 1).equals(t)) {
                continue;
            }
            tokens.add(t);
        }
        return m;
    }

    /** The phases in the order they occur, consecutive repeats merged ("reset, configure, set_map, ..."). */
    static List<Phase> order(List<Placed> placed) {
        List<Phase> out = new ArrayList<>();
        for (Placed p : placed) {
            if (out.isEmpty() || out.get(out.size() - 1) != p.phase()) {
                out.add(p.phase());
            }
        }
        return out;
    }
}
