package org.vdpactl.sys;

/**
 * The parts of stat(2) vdpactl looks at.
 *
 * @param type      what the node is
 * @param mode      permission bits (e.g. 0600)
 * @param uid       owner
 * @param gid       group
 * @param rdevMajor major number of a device node, else 0
 * @param rdevMinor minor number of a device node, else 0
 */
public record FileStat(Type type, int mode, int uid, int gid, int rdevMajor, int rdevMinor) {
    /** File types of st_mode. */
    public enum Type { REGULAR, DIRECTORY, CHAR_DEVICE, BLOCK_DEVICE, FIFO, SOCKET, SYMLINK, OTHER }

    public boolean isCharDevice() {
        return type == Type.CHAR_DEVICE;
    }

    /** "major:minor" as sysfs writes it in a device's {@code dev} attribute. */
    public String devNumber() {
        return rdevMajor + ":" + rdevMinor;
    }
}
