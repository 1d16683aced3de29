package org.vdpactl.bench.startup;

/** The start-up yardstick: a JVM that prints one word and exits (what any Java command pays before its own work). */
public final class Hello {
    private Hello() {
    }

    public static void main(String[] args) {
        System.out.println("hi");
    }
}
