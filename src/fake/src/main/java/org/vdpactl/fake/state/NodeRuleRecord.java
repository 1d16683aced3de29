package org.vdpactl.fake.state;

/**
 * A udev-like node rule as saved in the state file (the fake's NodePermissionRule), so a rule one
 * vdpactl process added holds for the next ones, as a host's rules do.
 *
 * @param kernelGlob node name glob ("vhost-vdpa-*")
 * @param uid        owner
 * @param gid        group
 * @param mode       permission bits
 */
public record NodeRuleRecord(String kernelGlob, int uid, int gid, int mode) {
}
