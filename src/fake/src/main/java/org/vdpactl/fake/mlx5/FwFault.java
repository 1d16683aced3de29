package org.vdpactl.fake.mlx5;

import org.vdpactl.sys.Errno;

/**
 * A firmware fault armed on the Nth command of an opcode (docs/spec/mlx5-model.md §6.4),
 * counted from the moment it is injected.
 *
 * @param opcode  the opcode it matches, or null for any command
 * @param nth     1-based: the Nth matching command fails
 * @param kind    what happens
 * @param errno   the error the command reports
 */
public record FwFault(FwOpcode opcode, int nth, Kind kind, int errno) {

    /** The three ways a command fails in mlx5_core. */
    public enum Kind {
        /** FW answers with a bad status; the command takes its normal time. */
        STATUS_ERROR,
        /** No completion: −ETIMEDOUT after {@code cmdTimeoutMs} ("will cause a leak of a command resource"). */
        TIMEOUT,
        /** No free slot within {@code cmdTimeoutMs}: −EBUSY, the command never reaches FW (§5 #14). */
        SLOT_STARVATION
    }

    public FwFault {
        if (nth < 1) {
            throw new IllegalArgumentException("nth is 1-based, got " + nth);
        }
    }

    /** The Nth {@code opcode} command (null = any) times out. */
    public static FwFault timeout(FwOpcode opcode, int nth) {
        return new FwFault(opcode, nth, Kind.TIMEOUT, Errno.ETIMEDOUT);
    }

    /** The Nth {@code opcode} command (null = any) fails with {@code errno}. */
    public static FwFault error(FwOpcode opcode, int nth, int errno) {
        return new FwFault(opcode, nth, Kind.STATUS_ERROR, errno);
    }

    /** The Nth command of any opcode finds no slot. */
    public static FwFault slotStarvation(int nth) {
        return new FwFault(null, nth, Kind.SLOT_STARVATION, Errno.EBUSY);
    }

    boolean matches(FwOpcode op) {
        return opcode == null || opcode == op;
    }
}
