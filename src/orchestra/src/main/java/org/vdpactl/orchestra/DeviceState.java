package org.vdpactl.orchestra;

/** Where a device stands when a rehearsal ends or rolls back. */
public enum DeviceState {
    /** DRIVER_OK, resumed, memory mapped: as a running guest has it. */
    RUNNING,
    /** Status 0 (reset); its memory is mapped only if the report says so (a premapped destination). */
    RESET,
    /**
     * Never held open by the rehearsal (its open failed, or the set-up stopped before it): the node
     * is closed and the rehearsal changed nothing in it.
     */
    CLOSED,
    /** Could not be brought to a known state (the report names the call that failed). */
    UNKNOWN
}
