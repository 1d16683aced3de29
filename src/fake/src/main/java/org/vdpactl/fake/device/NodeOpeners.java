package org.vdpactl.fake.device;

import java.util.Optional;

/**
 * The other processes' side of the single-opener rule: on one kernel vhost_vdpa_open's {@code opened}
 * flag is seen by every process, but each vdpactl process runs its own fake kernel, so the fake
 * kernels sharing a state file record their opens there. {@link #LOCAL} is a kernel of its own.
 */
public interface NodeOpeners {
    /** A kernel no other process shares: nothing to record. */
    NodeOpeners LOCAL = new NodeOpeners() {
        @Override
        public void claim(String device, int minor) {
        }

        @Override
        public void release(String device, int minor) {
        }

        @Override
        public Optional<String> claimForRemoval(String device, int minor) {
            return Optional.empty();
        }

        @Override
        public void removalAbandoned(String device, int minor) {
        }

        @Override
        public Optional<String> holder(String device, int minor) {
            return Optional.empty();
        }
    };

    /** Records this kernel's open; KernelError EBUSY when another process has it open, ENOENT when it removes it. */
    void claim(String device, int minor);

    /** Forgets this kernel's open (never throws: a close cannot fail). */
    void release(String device, int minor);

    /**
     * Claims the node for dev_del when no other process has it open; else says who has it
     * (the caller waits and asks again, as vhost_vdpa_remove waits for the last close).
     */
    Optional<String> claimForRemoval(String device, int minor);

    /** An interrupted dev_del gives its claim back. */
    void removalAbandoned(String device, int minor);

    /** Which other live process holds the node open ("pid N (command)"), if one does. */
    Optional<String> holder(String device, int minor);
}
