package org.vdpactl.orchestra;

import java.util.List;
import org.vdpactl.vhost.DeviceStatus;

/**
 * One device at the end of a rehearsal (before its fd is closed; closing resets it in the kernel).
 *
 * @param name     device label
 * @param path     its node
 * @param role     "source+destination", "source" or "destination"
 * @param state    running, reset or unknown
 * @param mapped   true when the guest memory layout is mapped in it
 * @param status   the status byte read back at the end as a sentence ("0x0f (...)"), or null when it could not be
 *                 read: schema version 1's key, kept for its readers
 * @param detail   what happened to it: "rolled back: resumed", "reset after ... failed", ...
 * @param statusByte  the same status byte as a number (null when it could not be read), so that a program tests a bit
 *                    without parsing a sentence
 * @param statusNames its flags' names ({@code DRIVER_OK}; empty for 0), null when it could not be read
 */
public record DeviceReport(String name, String path, String role, DeviceState state, boolean mapped, String status,
        String detail, Integer statusByte, List<String> statusNames) {

    /** A device whose status was read back ({@code read}), or could not be ({@code null}). */
    public static DeviceReport of(String name, String path, String role, DeviceState state, boolean mapped,
                                  DeviceStatus read, String detail) {
        return read == null ? new DeviceReport(name, path, role, state, mapped, null, detail, null, null)
                : new DeviceReport(name, path, role, state, mapped, read.toString(), detail, read.bits(), read.names());
    }
}
