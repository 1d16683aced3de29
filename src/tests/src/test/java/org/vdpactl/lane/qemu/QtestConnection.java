package org.vdpactl.lane.qemu;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

/**
 * QEMU's qtest protocol on the process's stdin/stdout ({@code -qtest stdio}): one text command per
 * line, one "OK ..." or "FAIL ..." line per command. It reaches the guest's I/O ports and physical
 * memory without a guest CPU, so a test can play the guest's virtio driver. Asynchronous lines
 * ("IRQ raise N") only come after irq_intercept, which this driver never asks for.
 */
public final class QtestConnection {
    private final BufferedReader in;
    private final OutputStream out;

    QtestConnection(Process qemu) {
        this.in = new BufferedReader(new InputStreamReader(qemu.getInputStream(), StandardCharsets.US_ASCII));
        this.out = qemu.getOutputStream();
    }

    /** Sends one command and returns the words after "OK" (empty for a bare OK). */
    String command(String line) throws IOException {
        out.write((line + "\n").getBytes(StandardCharsets.US_ASCII));
        out.flush();
        while (true) {
            String reply = in.readLine();
            if (reply == null) {
                throw new IOException("qtest: QEMU closed the connection after '" + line + "'");
            }
            if (reply.startsWith("IRQ ")) {
                continue;
            }
            if (reply.equals("OK")) {
                return "";
            }
            if (reply.startsWith("OK ")) {
                return reply.substring(3).trim();
            }
            throw new IOException("qtest: '" + line + "' answered '" + reply + "'");
        }
    }

    private static long number(String s) {
        return Long.parseUnsignedLong(s.startsWith("0x") ? s.substring(2) : s, s.startsWith("0x") ? 16 : 10);
    }

    void outl(int port, long value) throws IOException {
        command("outl 0x" + Integer.toHexString(port) + " 0x" + Long.toHexString(value));
    }

    long inl(int port) throws IOException {
        return number(command("inl 0x" + Integer.toHexString(port)));
    }

    void write(String width, long addr, long value) throws IOException {
        command("write" + width + " 0x" + Long.toHexString(addr) + " 0x" + Long.toHexString(value));
    }

    long read(String width, long addr) throws IOException {
        return number(command("read" + width + " 0x" + Long.toHexString(addr)));
    }

    /** Writes bytes into guest physical memory. */
    void memwrite(long addr, byte[] data) throws IOException {
        command("write 0x" + Long.toHexString(addr) + " 0x" + Integer.toHexString(data.length) + " 0x"
                + HexFormat.of().formatHex(data));
    }

    /** Zeroes guest physical memory. */
    void memset(long addr, int size) throws IOException {
        command("memset 0x" + Long.toHexString(addr) + " 0x" + Integer.toHexString(size) + " 0x00");
    }
}
