package org.vdpactl.fake.fault;

import java.util.Objects;
import java.util.regex.Pattern;

import org.vdpactl.sys.Errno;

/**
 * One fault-injection rule: which calls it matches and what it does to them.
 * See docs/fake-faults.md for the JSON form.
 *
 * @param device     device name or glob ("*", "mlx5-*"); "*" also matches calls that have no device
 * @param call       call name or glob: an ioctl's kernel name ("VHOST_VDPA_SUSPEND"), "open", "write"
 *                   (IOTLB), a driver op ("set_map", "suspend", "dev_add"), a netlink command
 *                   ("VDPA_CMD_DEV_NEW")
 * @param occurrence the first matching call (1-based) the rule fires on; 0 = every matching call
 * @param count      how many consecutive matching calls fire, starting at {@code occurrence} (ignored for every)
 * @param errno      errno to fail with (0 = none)
 * @param delayNanos time added before the call goes on (or fails)
 * @param firmwareTimeoutNanos when &gt; 0: the call waits this long on the device, then fails with ETIMEDOUT
 * @param link       a link change of the device's PCI function when the rule fires ({@link Link#NONE}: none), before
 *                   the call goes on: a port event as {@code devlink port function set ... state} or a cable pull
 *                   raises it, so a control plane can be tried against a link flap at a chosen call
 */
public record FaultRule(String device, String call, long occurrence, long count, int errno, long delayNanos,
                        long firmwareTimeoutNanos, Link link) {

    /** What a firing rule does to the link of the device's PCI function (mlx5: its vport's state). */
    public enum Link {
        /** No link change. */
        NONE,
        /** The port goes down (MLX5_PORT_CHANGE_SUBTYPE_DOWN). */
        DOWN,
        /** The port comes up (MLX5_PORT_CHANGE_SUBTYPE_ACTIVE). */
        UP
    }

    public FaultRule {
        Objects.requireNonNull(device, "device");
        Objects.requireNonNull(call, "call");
        Objects.requireNonNull(link, "link");
        String problem = problem(call, occurrence, count, errno, delayNanos, firmwareTimeoutNanos);
        if (problem != null) {
            throw new FaultRuleException("invalid fault rule " + device + "/" + call + ": " + problem);
        }
    }

    /** A rule without a link change (the record's form before link changes existed; kept for callers of it). */
    public FaultRule(String device, String call, long occurrence, long count, int errno, long delayNanos,
                     long firmwareTimeoutNanos) {
        this(device, call, occurrence, count, errno, delayNanos, firmwareTimeoutNanos, Link.NONE);
    }

    /** Why a rule cannot be used, as the end of a sentence, or null: a rule that could never fire is refused too. */
    private static String problem(String call, long occurrence, long count, int errno, long delayNanos,
                                  long firmwareTimeoutNanos) {
        if (!FaultCalls.matchesSome(call)) {
            return "unknown call \"" + call + "\" (the rule could never fire); valid calls: "
                    + String.join(", ", FaultCalls.known()) + ", or \"ioctl 0xNNNNNNNN\" for an unnamed ioctl code";
        }
        if (occurrence < 0) {
            return "occurrence " + occurrence + " is negative (1 = the first matching call, 0 = every one)";
        }
        if (count < 1) {
            return "count " + count + " must be at least 1";
        }
        if (errno < 0 || errno > FaultRules.MAX_ERRNO || (errno > 0 && Errno.name(errno).equals("E" + errno))) {
            return "errno " + errno + " is not a Linux errno";
        }
        if (delayNanos < 0 || firmwareTimeoutNanos < 0) {
            return "a delay or firmware timeout cannot be negative";
        }
        return null;
    }

    /** Fails the Nth matching call with {@code errno}. */
    public static FaultRule errnoAt(String device, String call, long occurrence, int errno) {
        return new FaultRule(device, call, occurrence, 1, errno, 0, 0);
    }

    /** Fails every matching call with {@code errno}. */
    public static FaultRule errnoAlways(String device, String call, int errno) {
        return new FaultRule(device, call, 0, 1, errno, 0, 0);
    }

    /** Delays every matching call by {@code millis}. */
    public static FaultRule delayAlways(String device, String call, double millis) {
        return new FaultRule(device, call, 0, 1, 0, Math.round(millis * 1e6), 0);
    }

    /** The Nth matching call waits {@code millis} on the device and then fails with ETIMEDOUT. */
    public static FaultRule firmwareTimeoutAt(String device, String call, long occurrence, double millis) {
        return new FaultRule(device, call, occurrence, 1, 0, 0, Math.round(millis * 1e6));
    }

    /**
     * The Nth matching call first changes the link of the device's PCI function ({@code up} or down): the port event
     * the driver's notifier sees, delivered before the call goes on.
     */
    public static FaultRule linkAt(String device, String call, long occurrence, boolean up) {
        return new FaultRule(device, call, occurrence, 1, 0, 0, 0, up ? Link.UP : Link.DOWN);
    }

    /** Whether the rule changes the link of a PCI function when it fires. */
    public boolean changesLink() {
        return link != Link.NONE;
    }

    /** True when the rule fires on every matching call. */
    public boolean every() {
        return occurrence == 0;
    }

    boolean matches(String deviceName, String callName) {
        return glob(device, deviceName == null ? "" : deviceName) && glob(call, callName);
    }

    /** Whether the rule's device pattern matches {@code deviceName} (a rule with "*" concerns every device). */
    public boolean concerns(String deviceName) {
        return glob(device, deviceName);
    }

    /** Whether the {@code n}th (1-based) matching call fires. */
    boolean firesOn(long n) {
        return every() || (n >= occurrence && n < occurrence + count);
    }

    private static boolean glob(String pattern, String value) {
        if (pattern.equals("*")) {
            return true;
        }
        if (!pattern.contains("*")) {
            return pattern.equals(value);
        }
        StringBuilder re = new StringBuilder();
        for (String part : pattern.split("\\*", -1)) {
            if (!re.isEmpty()) {
                re.append(".*");
            }
            re.append(Pattern.quote(part));
        }
        return value.matches(re.toString());
    }
}
