package org.vdpactl.fake;

import java.util.regex.Pattern;

/**
 * The owner, group and mode a host's rules give a device node: every /dev node whose name matches
 * the glob gets them. Without a rule a vhost-vdpa node is devtmpfs's {@code crw------- root root}
 * (verified on 6.12). Later rules override earlier ones, as udev applies rules in order.
 *
 * <p>On 6.12 the node's own device has neither a bus nor a class, so the kernel sends no uevent
 * for it and a {@code KERNEL=="vhost-vdpa-*"} rule never fires; hosts act on the parent vdpa
 * device's event instead ({@code SUBSYSTEM=="vdpa", DRIVER=="vhost_vdpa"} with a RUN that chgrps
 * and chmods the node) or fix the node up afterwards. This models the result, however it is reached.
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
