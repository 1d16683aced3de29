package org.vdpactl.cli;

import java.util.Collection;
import java.util.List;
import java.util.Optional;
import org.vdpactl.fake.kernel.KernelProfile;

/** What the CLI asks of the fake kernel behind a {@link Backend}: only what fake-only output needs. */
public interface FakeKernelControl {
    /** The Linux version the fake speaks. */
    KernelProfile kernelProfile();

    /** The latency preset of the fake device {@code deviceName}'s management device; empty when there is no such device. */
    Optional<String> preset(String deviceName);

    /**
     * The --fake-faults rules whose device pattern matches none of {@code deviceNames}, as "rule #N
     * (device "mlx5-99")": rules that could never fire on a run over those devices.
     */
    List<String> faultRulesMatchingNone(Collection<String> deviceNames);
}
