package org.vdpactl.cli;

import picocli.CommandLine;

/** Reads the version from the jar manifest (Maven writes Implementation-Version). */
final class VersionProvider implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
        String v = Main.class.getPackage().getImplementationVersion();
        return new String[] {
            "vdpactl " + (v == null ? "(development build)" : v),
            "Java " + Runtime.version() + " (" + System.getProperty("java.vendor") + ")",
            "OS " + System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch")
        };
    }
}
