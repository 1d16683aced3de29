package org.vdpactl.cli.host;

import org.vdpactl.fake.FakeProcess;
import org.vdpactl.fake.ResourceLimit;

/** The fake process's limits (what the fake kernel enforces on the fake backend). */
public record FakeProcessLimits(FakeProcess process) implements ProcessLimits {
    @Override
    public ResourceLimit nofile() {
        return process.nofileLimit();
    }

    @Override
    public void setNofile(ResourceLimit limit) {
        process.setNofileLimit(limit);
    }

    @Override
    public ResourceLimit memlock() {
        return process.memlockLimit();
    }

    @Override
    public void setMemlock(ResourceLimit limit) {
        process.setMemlockLimit(limit);
    }

    @Override
    public int openDescriptors() {
        return process.openFds().size();
    }
}
