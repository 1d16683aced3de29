package org.vdpactl.fake.fault;

import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.Arrays;
import org.vdpactl.abi.UapiIoctl;
import org.vdpactl.abi.UapiVdpaCommand;

/**
 * The call names the fake's fault injector is asked about: a rule naming anything else can never
 * fire, so a typo would silently turn a fault test into a clean run.
 */
final class FaultCalls {
    /** An ioctl code the fake does not know by name, as it reports it. */
    private static final Pattern RAW_IOCTL = Pattern.compile("ioctl 0x[0-9A-F]{8}");

    private FaultCalls() {
    }

    static Set<String> known() {
        Set<String> all = new TreeSet<>();
        Arrays.stream(DriverCall.values()).map(DriverCall::kernelName).forEach(all::add);
        Arrays.stream(UapiIoctl.values()).map(Enum::name).forEach(all::add);
        Arrays.stream(UapiVdpaCommand.values()).map(Enum::name).forEach(all::add);
        return all;
    }

    /** True when {@code call} (a name or a glob with '*') matches at least one call the fake makes. */
    static boolean matchesSome(String call) {
        if (RAW_IOCTL.matcher(call).matches()) {
            return true;
        }
        if (!call.contains("*")) {
            return known().contains(call);
        }
        Pattern glob = Pattern.compile(("\\Q" + call + "\\E").replace("*", "\\E.*\\Q"));
        return known().stream().anyMatch(n -> glob.matcher(n).matches()) || glob.matcher("ioctl 0x0000AF00").matches();
    }
}
