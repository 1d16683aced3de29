package org.vdpactl.fake.device;

import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

import org.vdpactl.fake.fault.FaultRule;
import org.vdpactl.fake.fault.FaultRuleException;

/**
 * Refuses a fault rule on a driver op that no device it names ever calls (dma_map on vdpa_sim, which maps with
 * set_map; suspend on a driver without a suspend op): the rule file's syntax accepts it and it never fires, so a fault
 * test would pass as a clean run. Checked against the devices on the bus, each with its driver's declared ops
 * ({@link FakeVdpaDevice#callsOp}) on the kernel the bus speaks, and, for a rule that names none of them (a device a
 * later command adds), against the driver of every management device.
 */
public final class FaultRuleReach {
    /** The ops a driver may lack; the others every driver has (or the fault injector names them itself). */
    private static final Set<String> OPTIONAL_OPS = Set.of("set_map", "dma_map", "dma_unmap", "reset_map", "suspend", "resume");
    /** How many devices a refusal names before "and N more". */
    private static final int NAMED = 3;

    private FaultRuleReach() {
    }

    /**
     * @param kernelVersion the Linux version the bus speaks, for the message
     * @throws FaultRuleException naming the first rule that could never fire, its devices and their drivers
     */
    public static void check(List<FaultRule> rules, FakeVdpaBus bus, String kernelVersion) {
        for (int i = 0; i < rules.size(); i++) {
            FaultRule r = rules.get(i);
            if (r.changesLink()) {
                checkLink(i, r, bus, kernelVersion);
            }
            if (!OPTIONAL_OPS.contains(r.call())) {
                continue;
            }
            List<FakeVdpaDevice> named = bus.fakeDevices().stream().filter(d -> r.concerns(d.name())).toList();
            String why;
            if (!named.isEmpty()) {
                if (named.stream().anyMatch(d -> d.callsOp(r.call()))) {
                    continue;
                }
                why = named.stream().limit(NAMED)
                        .map(d -> d.name() + " (" + d.fakeMgmtDevice().profile().name() + ": " + lacks(d.spec().ops(), r.call()) + ")")
                        .collect(Collectors.joining("; ")) + (named.size() > NAMED ? "; and " + (named.size() - NAMED) + " more" : "");
            } else {
                if (bus.fakeManagementDevices().stream().anyMatch(m -> m.profile().device().ops().calls(r.call()))) {
                    continue;
                }
                why = "no device is named " + r.device() + " yet, and no management device's driver calls " + r.call();
            }
            throw new FaultRuleException("rule #" + (i + 1) + " (device " + r.device() + ", call " + r.call()
                    + ") could never fire on the fake's Linux " + kernelVersion + ": " + why
                    + "; name a call these devices' driver makes");
        }
    }

    /**
     * A link rule changes the link of the PCI function behind a device: on devices whose driver has none (vdpa_sim,
     * VDUSE) it never changes anything, so a link-flap test would pass as a clean run.
     */
    private static void checkLink(int i, FaultRule r, FakeVdpaBus bus, String kernelVersion) {
        List<FakeVdpaDevice> named = bus.fakeDevices().stream().filter(d -> r.concerns(d.name())).toList();
        String why;
        if (!named.isEmpty()) {
            if (named.stream().anyMatch(d -> d.spec().driverFacts() != null)) {
                return;
            }
            why = named.stream().limit(NAMED)
                    .map(d -> d.name() + " (" + d.fakeMgmtDevice().profile().name() + ")")
                    .collect(Collectors.joining(", ")) + (named.size() > NAMED ? " and " + (named.size() - NAMED) + " more" : "")
                    + ": no PCI function behind their driver";
        } else {
            if (bus.fakeManagementDevices().stream().anyMatch(m -> m.profile().device().driverFacts() != null)) {
                return;
            }
            why = "no device is named " + r.device() + " yet, and no management device has a PCI function";
        }
        throw new FaultRuleException("rule #" + (i + 1) + " (device " + r.device() + ", link " + r.link().name().toLowerCase(Locale.ROOT)
                + ") could never change a link on the fake's Linux " + kernelVersion + ": " + why
                + "; name a device of a driver with a function (mlx5)");
    }

    private static String lacks(DeviceProfile.Ops ops, String op) {
        return switch (op) {
            case "set_map", "dma_map", "dma_unmap" -> "its driver " + ops.mappingWords();
            default -> "its driver has no " + op + " op";
        };
    }
}
