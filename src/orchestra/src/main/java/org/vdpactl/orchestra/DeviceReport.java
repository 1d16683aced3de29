package org.vdpactl.orchestra;

/**
 * One device at the end of a rehearsal (before its fd is closed; closing resets it in the kernel).
 *
 * @param name     device label
 * @param path     its node
 * @param role     "source+destination", "source" or "destination"
 * @param state    running, reset or unknown
 * @param mapped   true when the guest memory layout is mapped in it
 * @param status   the status byte read back at the end ("0x0f (...)"), or null when it could not be read
 * @param detail   what happened to it: "rolled back: resumed", "reset after ... failed", ...
 */
public record DeviceReport(String name, String path, String role, DeviceState state, boolean mapped, String status,
        String detail) {
}
