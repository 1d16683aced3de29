package org.vdpactl.fake;

import java.util.regex.Pattern;

/**
 * What a udev rule does to a device node when devtmpfs creates it, e.g.
 * {@code KERNEL=="vhost-vdpa-*", GROUP="kvm", MODE="0660"}: owner, group and mode of every
 * /dev node whose name matches the glob. Without a rule a vhost-vdpa node is devtmpfs's
 * {@code crw------- root root} (verified on 6.12). Later rules override earlier ones, as udev
 * applies rules in order.
 *
 * @param kernelGlob node name under /dev with udev's {@code *} and {@code ?} ("vhost-vdpa-*")
 * @param uid        owner
 * @param gid        group
 * @param mode       permission bits (0660)
 */
public record NodePermissionRule(String kernelGlob, int uid, int gid, int mode) {

    public NodePermissionRule {
        if ((mode & ~07777) != 0) {
            throw new IllegalArgumentException("mode 0" + Integer.toOctalString(mode) + " has bits outside 07777");
        }
    }

    /** A rule that gives group {@code gid} access with {@code mode}, the owner staying root. */
    public static NodePermissionRule group(String kernelGlob, int gid, int mode) {
        return new NodePermissionRule(kernelGlob, 0, gid, mode);
    }

    boolean matches(String nodeName) {
        StringBuilder re = new StringBuilder();
        for (char c : kernelGlob.toCharArray()) {
            re.append(switch (c) {
                case '*' -> ".*";
                case '?' -> ".";
                default -> Pattern.quote(String.valueOf(c));
            });
        }
        return nodeName.matches(re.toString());
    }
}
