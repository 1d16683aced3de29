package com.example.suspendpolicy;

import org.vdpactl.mgmt.FamilyNotAvailableException;
import org.vdpactl.sys.PanamaSyscalls;

/**
 * {@code Main MGMTDEV}: suspends every device of a management device on the running kernel, all or nothing,
 * and prints one line per device. Run as docs/library.md shows, with vdpactl's jars on the module path and
 * {@code --enable-native-access=org.vdpactl.abi}.
 */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        if (args.length != 1) {
            System.err.println("usage: Main MGMTDEV");
            System.exit(2);
        }
        try {
            for (SuspendAll.Result r : new SuspendAll(new PanamaSyscalls()).suspend(args[0])) {
                System.out.println(r.device() + " " + r.outcome() + (r.error() == null ? "" : " " + r.error()));
            }
        } catch (FamilyNotAvailableException e) {
            System.err.println("suspend-policy: " + e.getMessage());
            System.exit(8);
        }
    }
}
