package org.vdpactl.cli.migrate;

import java.util.List;

/**
 * The verdict on one source device and the destination device it would migrate to.
 *
 * @param source      source device name
 * @param destination destination device name
 * @param verdict     "compatible", "warnings" (migrates, on a path with costs) or "blocked"
 * @param blockers    what makes QEMU's migration fail, each with what to do
 * @param path        the path QEMU takes, or null when a blocker leaves none to describe
 * @param warnings    what the path costs or leaves undone, each with what to do
 */
public record PairReport(String source, String destination, String verdict, List<Finding> blockers, MigrationPath path,
                         List<Finding> warnings) {

    public static final String COMPATIBLE = "compatible";
    public static final String WARNINGS = "warnings";
    public static final String BLOCKED = "blocked";

    /** The worse of two verdicts (blocked, then warnings, then compatible). */
    public static String worse(String a, String b) {
        return rank(a) >= rank(b) ? a : b;
    }

    private static int rank(String v) {
        return switch (v) {
            case BLOCKED -> 2;
            case WARNINGS -> 1;
            default -> 0;
        };
    }

    /**
     * One blocker or warning.
     *
     * @param id       stable key ("features", "queue-pairs", "svq-switch", ...): docs/migrate.md lists them
     * @param message  what is wrong
     * @param action   what to do about it
     * @param source   where the rule comes from (QEMU file and function, or the kernel's)
     * @param costMs   what it costs in downtime, from a rehearsal (null without one; never typed)
     * @param costFrom the rehearsal the cost comes from, or null
     */
    public record Finding(String id, String message, String action, String source, Double costMs, String costFrom) {
        Finding(String id, String message, String action, String source) {
            this(id, message, action, source, null, null);
        }

        Finding withCost(double ms, String from) {
            return new Finding(id, message, action, source, ms, from);
        }
    }

    /**
     * The migration path as the QEMU versions of both hosts decide it.
     *
     * @param qemuSource        QEMU version whose rules the source side used (the table row)
     * @param qemuDestination   likewise for the destination
     * @param svq               "x-svq" (shadowed from boot), "at-migration-start" (switched when the migration
     *                          starts), or "required" (QEMU refuses to migrate without x-svq=on)
     * @param stop              "suspend" or "reset": how the source's device is stopped
     * @param cvq               "isolated" (the destination's control queue in address space 1, shadowed),
     *                          "shadowed" (with every virtqueue, address space 0), "passthrough" (not shadowed:
     *                          its state is not replayed), "none" (no control queue negotiated)
     * @param resumeForRollback whether a failed migration resumes the source (VHOST_VDPA_RESUME) rather
     *                          than restarting it
     * @param explanation       one line per decision, with its QEMU source
     * @param rehearsal         the vdpactl rehearse command lines that rehearse this path
     */
    public record MigrationPath(String qemuSource, String qemuDestination, String svq, String stop, String cvq,
                                boolean resumeForRollback, List<String> explanation, List<Rehearsal> rehearsal) {
    }

    /**
     * One rehearsal of the path.
     *
     * @param rehearses  what part of the path
     * @param command    the command line (DEST: the destination device, on one host with both)
     * @param downtimeMs the downtime this check rehearsed (--rehearse), or null
     * @param simulated  true when that figure comes from the fake's models; null without a figure
     * @param note       why it was not rehearsed; for a figure of a facts document's device, the fake model it was
     *                   rehearsed on; else null
     */
    public record Rehearsal(String rehearses, String command, Double downtimeMs, Boolean simulated, String note) {
        Rehearsal(String rehearses, String command) {
            this(rehearses, command, null, null, null);
        }

        Rehearsal measured(String ranCommand, double ms, boolean sim) {
            return new Rehearsal(rehearses, ranCommand, ms, sim, null);
        }

        /** A figure of the fake's model of a facts document's device: simulated, the note says what was modelled. */
        Rehearsal simulatedOn(String ranCommand, double ms, String model) {
            return new Rehearsal(rehearses, ranCommand, ms, true, model);
        }

        Rehearsal notRehearsed(String why) {
            return new Rehearsal(rehearses, command, null, null, why);
        }
    }
}
