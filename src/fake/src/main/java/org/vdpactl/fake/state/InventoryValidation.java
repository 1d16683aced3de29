package org.vdpactl.fake.state;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.vdpactl.sys.VdpaDeviceRules;

/**
 * Checks every field of a loaded state, so a hand-edited or damaged file is refused with the field
 * named instead of producing devices no kernel could have (negative minors, MTUs, ...).
 */
final class InventoryValidation {
    /** MINORMASK + 1: vhost-vdpa minors are below 1 << MINORBITS. */
    private static final int MINOR_LIMIT = 1 << 20;

    private InventoryValidation() {
    }

    /** The first problem, as "devices[2].minor = -1 is negative", or null when the state is valid. */
    static String problemOf(SharedState state) {
        String problem = problemOf(state.inventory());
        if (problem != null) {
            return problem;
        }
        for (int i = 0; i < state.openNodes().size(); i++) {
            NodeOpenRecord o = state.openNodes().get(i);
            if (o == null || o.device() == null || o.minor() < 0 || o.minor() >= MINOR_LIMIT || o.pid() <= 0) {
                return "openNodes[" + i + "] needs a device, a minor in 0.." + (MINOR_LIMIT - 1) + " and a positive pid";
            }
        }
        for (int i = 0; i < state.nodeRules().size(); i++) {
            NodeRuleRecord r = state.nodeRules().get(i);
            if (r == null || r.kernelGlob() == null || r.kernelGlob().isEmpty() || (r.mode() & ~07777) != 0
                    || r.uid() < 0 || r.gid() < 0) {
                return "nodeRules[" + i + "] needs a glob, a uid and gid >= 0 and a mode within 07777";
            }
        }
        for (Map.Entry<String, Map<String, Long>> e : state.vstats().entrySet()) {
            for (Map.Entry<String, Long> c : e.getValue().entrySet()) {
                if (c.getValue() == null || c.getValue() < 0) {
                    return "vstats." + e.getKey() + "[\"" + c.getKey() + "\"] = " + c.getValue() + " is not a count";
                }
            }
        }
        return null;
    }

    static String problemOf(Inventory inventory) {
        List<Inventory.Mgmt> mgmts = inventory.mgmtdevs();
        for (int i = 0; i < mgmts.size(); i++) {
            Inventory.Mgmt m = mgmts.get(i);
            if (m == null || m.profile() == null || m.profile().isBlank()) {
                return "mgmtdevs[" + i + "].profile is missing";
            }
            String function = functionProblem(m.function());
            if (function != null) {
                return "mgmtdevs[" + i + "].function." + function;
            }
        }
        Set<String> names = new HashSet<>();
        Set<Integer> minors = new HashSet<>();
        List<Inventory.Device> devices = inventory.devices();
        for (int i = 0; i < devices.size(); i++) {
            Inventory.Device d = devices.get(i);
            String at = "devices[" + i + "]";
            if (d == null) {
                return at + " is null";
            }
            if (d.name() == null || d.name().isEmpty()) {
                return at + ".name is missing";
            }
            String nameProblem = VdpaDeviceRules.nameProblem(d.name());
            if (nameProblem != null) {
                return at + ".name " + quoted(d.name()) + " " + nameProblem;
            }
            if (!names.add(d.name())) {
                return at + ".name " + quoted(d.name()) + " is a duplicate";
            }
            if (d.mgmtdev() == null || d.mgmtdev().isEmpty()) {
                return at + ".mgmtdev is missing";
            }
            if (d.minor() != null) {
                if (d.minor() < 0 || d.minor() >= MINOR_LIMIT) {
                    return at + ".minor = " + d.minor() + " is out of range (0 to " + (MINOR_LIMIT - 1) + ")";
                }
                if (!minors.add(d.minor())) {
                    return at + ".minor = " + d.minor() + " is used by another device";
                }
            }
            if (d.mtu() != null && VdpaDeviceRules.mtuProblem(d.mtu()) != null) {
                return at + ".mtu = " + d.mtu() + " " + VdpaDeviceRules.mtuProblem(d.mtu());
            }
            if (d.maxVqPairs() != null && (d.maxVqPairs() < 1 || d.maxVqPairs() > 0x8000)) {
                return at + ".maxVqPairs = " + d.maxVqPairs() + " is out of range (1 to 32768)";
            }
            String mac = unicastMacProblem(d.mac());
            if (mac != null) {
                return at + ".mac " + mac;
            }
            String configMac = unicastMacProblem(d.configMac());
            if (configMac != null) {
                return at + ".configMac " + configMac;
            }
            if (d.features() != null && !d.features().matches("0[xX][0-9a-fA-F]{1,16}")) {
                return at + ".features " + quoted(d.features()) + " is not a 64-bit hex number 0x...";
            }
        }
        return null;
    }

    /** The first problem of a saved function state ("mtu = 20 is ..."), or null. */
    private static String functionProblem(Inventory.Function f) {
        if (f == null) {
            return null;
        }
        if (f.mac() != null && !f.mac().matches("[0-9a-fA-F]{2}(:[0-9a-fA-F]{2}){5}")) {
            return "mac " + quoted(f.mac()) + " is not a MAC address xx:xx:xx:xx:xx:xx";
        }
        if (f.mtu() != null && VdpaDeviceRules.mtuProblem(f.mtu()) != null) {
            return "mtu = " + f.mtu() + " " + VdpaDeviceRules.mtuProblem(f.mtu());
        }
        if (f.link() != null && !Inventory.Function.DOWN.equals(f.link())) {
            return "link " + quoted(f.link()) + " is not \"down\" (a link that is up is left out)";
        }
        return null;
    }

    /** What {@code dev add --mac} and {@code dev set --mac} refuse: the syntax, then a multicast, broadcast or zero address. */
    private static String unicastMacProblem(String mac) {
        if (mac == null) {
            return null;
        }
        if (!mac.matches("[0-9a-fA-F]{2}(:[0-9a-fA-F]{2}){5}")) {
            return quoted(mac) + " is not a MAC address xx:xx:xx:xx:xx:xx";
        }
        String why = VdpaDeviceRules.unicastMacProblem(Inventory.parseMac(mac));
        return why == null ? null : quoted(mac) + " " + why;
    }

    private static String quoted(String s) {
        return VdpaDeviceRules.quotedName(s);
    }

    /** The first null entry of the file's lists ("mgmtdevs[2] is null"), which no record can hold; or null. */
    static String nullEntry(String list, List<?> entries) {
        if (entries == null) {
            return null;
        }
        for (int i = 0; i < entries.size(); i++) {
            if (entries.get(i) == null) {
                return list + "[" + i + "] is null";
            }
        }
        return null;
    }
}
