package org.vdpactl.cli;

import java.util.Collection;
import java.util.List;
import java.util.Optional;
import org.vdpactl.abi.KernelProfile;

/** What the CLI asks of the fake kernel behind a {@link Backend}: only what fake-only output needs. */
public interface FakeKernelControl {
    /** The Linux version the fake speaks. */
    KernelProfile kernelProfile();

    /** The latency preset of the fake device {@code deviceName}'s management device; empty when there is no such device. */
    Optional<String> preset(String deviceName);

    /**
     * The preset with why it applies, "mlx5-pre612: the 6.1 kernel profile's mlx5_vdpa" or
     * "mlx5-611: named by the inventory"; empty when there is no such device or it has no preset.
     */
    Optional<String> presetWithReason(String deviceName);

    /**
     * The --fake-faults rules whose device pattern matches none of {@code deviceNames}, as "rule #N
     * (device "mlx5-99")": rules that could never fire on a run over those devices.
     */
    List<String> faultRulesMatchingNone(Collection<String> deviceNames);

    /**
     * Sets what is given (non-null) on the PCI function behind the management device {@code mgmtdev} ("pci/…"), as
     * {@code devlink port function set} does on a host: its MAC, vport MTU and link (a link change is a port event).
     *
     * @throws CliFailure NOT_FOUND for no such management device, NOT_SUPPORTED for one without a PCI function
     */
    void setFunction(String mgmtdev, byte[] mac, Integer mtu, Boolean linkUp);
}
