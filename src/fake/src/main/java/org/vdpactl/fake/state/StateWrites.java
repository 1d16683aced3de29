package org.vdpactl.fake.state;

/**
 * What a kernel on a shared state file may bring into existence, decided once by whoever opens it
 * (the CLI: by the command) and applied in one place, {@link FakeStateStore#updateOpenRecords}.
 */
public enum StateWrites {
    /**
     * A kernel that may change the devices (dev add/del/set, rehearse, the library's default): its
     * node-open records and its changes create the state's directory (mode 0700), file, lock file and
     * {@code .open} file when they are missing, so the single-opener rule holds from its first open.
     */
    CREATE,
    /**
     * A read-only command (dev list, vhost info, doctor): on a path that holds no state (neither the
     * file nor its {@code .open} file exists) its node opens are not recorded and nothing is created;
     * once a state exists its opens are recorded there like any other, so other processes still see
     * them. A change of the devices, which such a command does not make, would still be kept.
     */
    EXISTING_STATE_ONLY
}
