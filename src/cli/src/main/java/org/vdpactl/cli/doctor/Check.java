package org.vdpactl.cli.doctor;

/**
 * One line of the doctor's checklist.
 *
 * @param id     stable key for automation ("memlock", "node:/dev/vhost-vdpa-0")
 * @param status outcome
 * @param title  what was checked
 * @param detail what was found
 * @param hint   what to do about it (null when nothing)
 */
public record Check(String id, Status status, String title, String detail, String hint) {
    /** Outcome of a check; only FAIL makes the host "not ready". */
    public enum Status { OK, INFO, WARN, FAIL }

    public static Check ok(String id, String title, String detail) {
        return new Check(id, Status.OK, title, detail, null);
    }

    public static Check info(String id, String title, String detail) {
        return new Check(id, Status.INFO, title, detail, null);
    }

    public static Check warn(String id, String title, String detail, String hint) {
        return new Check(id, Status.WARN, title, detail, hint);
    }

    public static Check fail(String id, String title, String detail, String hint) {
        return new Check(id, Status.FAIL, title, detail, hint);
    }
}
