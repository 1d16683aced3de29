package org.vdpactl.vhost;

/**
 * The ring addresses of one virtqueue for VHOST_SET_VRING_ADDR. For vhost-vdpa they are IOVAs
 * (device addresses), not host virtual addresses.
 *
 * @param flags     bit 0 = VHOST_VRING_F_LOG (accepted, ignored by vhost-vdpa); other bits → EOPNOTSUPP
 * @param desc      descriptor table (no alignment check)
 * @param avail     driver area (must be 2-aligned)
 * @param used      device area (must be 4-aligned)
 * @param log       log address (must be 4-aligned even without F_LOG)
 */
public record VringAddress(int flags, long desc, long avail, long used, long log) {
    public static VringAddress of(long desc, long avail, long used) {
        return new VringAddress(0, desc, avail, used, 0);
    }
}
