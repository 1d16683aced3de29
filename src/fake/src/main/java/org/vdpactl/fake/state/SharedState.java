package org.vdpactl.fake.state;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Everything the state file holds besides the kernel version: the {@link Inventory}, the nodes
 * other processes have open, the host's node rules and each device's vendor-statistics counters.
 *
 * @param inventory management devices and vdpa devices
 * @param openNodes who has each /dev/vhost-vdpa-N open (or is removing it), see {@link NodeOpenRecord}
 * @param nodeRules udev-like rules for the nodes, in the order they were added
 * @param vstats    per device name, the vdpa_sim_net counters by their vendor-statistics name
 */
public record SharedState(Inventory inventory, List<NodeOpenRecord> openNodes, List<NodeRuleRecord> nodeRules,
                          Map<String, Map<String, Long>> vstats) {

    public SharedState {
        openNodes = List.copyOf(openNodes == null ? List.of() : openNodes);
        nodeRules = List.copyOf(nodeRules == null ? List.of() : nodeRules);
        Map<String, Map<String, Long>> copy = new LinkedHashMap<>();
        if (vstats != null) {
            // a null count (hand-edited file) becomes -1, which validation refuses with the field named
            vstats.forEach((k, v) -> {
                Map<String, Long> counts = new LinkedHashMap<>();
                if (v != null) {
                    v.forEach((n, c) -> counts.put(n, c == null ? -1L : c));
                }
                copy.put(k, Map.copyOf(counts));
            });
        }
        vstats = Map.copyOf(copy);
    }

    public static SharedState of(Inventory inventory) {
        return new SharedState(inventory, List.of(), List.of(), Map.of());
    }

    public SharedState withInventory(Inventory i) {
        return new SharedState(i, openNodes, nodeRules, vstats);
    }

    public SharedState withOpenNodes(List<NodeOpenRecord> o) {
        return new SharedState(inventory, o, nodeRules, vstats);
    }

    public SharedState withNodeRules(List<NodeRuleRecord> r) {
        return new SharedState(inventory, openNodes, r, vstats);
    }

    public SharedState withVstats(Map<String, Map<String, Long>> v) {
        return new SharedState(inventory, openNodes, nodeRules, v);
    }

    /** Drops what belongs to devices that no longer exist: a deleted device's node and counters go with it. */
    SharedState pruned() {
        Set<String> names = inventory.devices().stream().map(Inventory.Device::name).collect(Collectors.toSet());
        return new SharedState(inventory, openNodes.stream().filter(o -> names.contains(o.device())).toList(), nodeRules,
                vstats.entrySet().stream().filter(e -> names.contains(e.getKey()))
                        .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue)));
    }
}
