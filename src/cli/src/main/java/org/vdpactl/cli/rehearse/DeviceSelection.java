package org.vdpactl.cli.rehearse;

import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vdpactl.cli.CliFailure;
import org.vdpactl.cli.NodeArgumentFailure;
import org.vdpactl.cli.ExitCode;
import org.vdpactl.mgmt.FamilyNotAvailableException;
import org.vdpactl.mgmt.VdpaDevInfo;
import org.vdpactl.mgmt.VdpaNetlink;
import org.vdpactl.orchestra.DeviceTarget;
import org.vdpactl.sys.SyscallException;
import org.vdpactl.sys.Syscalls;
import org.vdpactl.vhost.VhostDeviceNodes;
import org.vdpactl.vhost.VhostNodeException;

/**
 * Which devices a rehearsal uses: the DEV arguments (vdpa names or /dev/vhost-vdpa-N), or every
 * vDPA device bound to vhost_vdpa, hardware first: when the bus has devices of a management device
 * with a bus (a PCI function: mlx5), the simulators are left out.
 */
public final class DeviceSelection {
    private static final Logger LOG = LoggerFactory.getLogger(DeviceSelection.class);

    private DeviceSelection() {
    }

    public static List<DeviceTarget> select(Syscalls sys, List<String> args, Integer count) {
        List<DeviceTarget> out = new ArrayList<>();
        List<String> simulators = new ArrayList<>();
        List<String> unbound = new ArrayList<>();
        if (!args.isEmpty()) {
            for (String a : args) {
                out.add(resolve(sys, a));
            }
        } else {
            for (String name : candidates(sys, simulators)) {
                VhostDeviceNodes.busEntry(sys, name).ifPresentOrElse(n -> out.add(new DeviceTarget(name, n.path())), () -> {
                    LOG.info("{} is not bound to vhost_vdpa; left out", name);
                    unbound.add(name);
                });
            }
            if (out.isEmpty()) {
                throw new CliFailure(ExitCode.NOT_FOUND, "no vDPA device bound to vhost_vdpa (vdpactl dev add ...; modprobe vhost_vdpa)");
            }
        }
        if (count != null) {
            if (count < 1) {
                throw new IllegalArgumentException("--devices must be at least 1, got " + count);
            }
            if (count > out.size()) {
                // say why the others do not count: "only 4" next to 64 listed simulators reads as a bug otherwise
                throw new CliFailure(ExitCode.NOT_FOUND, "--devices " + count + ": only " + out.size() + " usable vDPA device"
                        + (out.size() == 1 ? "" : "s") + " (" + String.join(", ", out.stream().map(DeviceTarget::name).toList()) + ")"
                        + (simulators.isEmpty() ? "" : (simulators.size() == 1 ? "; the software device " + simulators.getFirst() + " is"
                                : "; the " + simulators.size() + " software devices (" + shortList(simulators) + ") are")
                                + " left out while hardware is present: name them as DEV arguments to rehearse on them")
                        + (unbound.isEmpty() ? "" : "; not bound to vhost_vdpa: " + shortList(unbound)));
            }
            return List.copyOf(out.subList(0, count));
        }
        return out;
    }

    public static DeviceTarget resolve(Syscalls sys, String arg) {
        VhostDeviceNodes.Node node;
        try {
            node = VhostDeviceNodes.resolve(sys, arg);
        } catch (VhostNodeException e) {
            throw NodeArgumentFailure.of(sys, e);
        }
        if (!arg.contains("/") && !arg.startsWith("vhost-vdpa-")) {
            return new DeviceTarget(arg, node.path());
        }
        String name = VhostDeviceNodes.vdpaNameOf(sys, node.path()).orElse(node.sysName());
        return new DeviceTarget(name, node.path());
    }

    private static String shortList(List<String> names) {
        return names.size() <= 4 ? String.join(", ", names) : String.join(", ", names.subList(0, 3)) + ", ... " + names.getLast();
    }

    /**
     * Device names in bus order; hardware (a management device with a bus name) only, when there is any, the
     * software devices left out then added to {@code leftOut}.
     */
    private static List<String> candidates(Syscalls sys, List<String> leftOut) {
        try (VdpaNetlink nl = VdpaNetlink.open(sys)) {
            List<VdpaDevInfo> all = nl.devices();
            List<String> hardware = all.stream().filter(d -> d.mgmtBusName() != null).map(VdpaDevInfo::name).toList();
            if (!hardware.isEmpty()) {
                all.stream().filter(d -> d.mgmtBusName() == null).map(VdpaDevInfo::name).forEach(leftOut::add);
            }
            return hardware.isEmpty() ? all.stream().map(VdpaDevInfo::name).toList() : hardware;
        } catch (SyscallException e) {
            LOG.info("vdpa netlink not usable ({}); listing {}", e.getMessage(), VhostDeviceNodes.SYS_BUS_DEVICES);
            if (e instanceof FamilyNotAvailableException && !busExists(sys)) {
                throw e; // neither the vdpa family nor the vdpa bus: the environment is not ready, not a missing device
            }
            return VhostDeviceNodes.vdpaDevices(sys);
        }
    }

    private static boolean busExists(Syscalls sys) {
        try {
            sys.stat(VhostDeviceNodes.SYS_BUS_DEVICES);
            return true;
        } catch (SyscallException e) {
            return false;
        }
    }
}
