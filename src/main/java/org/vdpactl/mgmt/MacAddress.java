package org.vdpactl.mgmt;

import java.util.Arrays;
import java.util.HexFormat;

/** A 48-bit Ethernet address as VDPA_ATTR_DEV_NET_CFG_MACADDR carries it. */
public final class MacAddress {
    public static final int LENGTH = 6;
    private final byte[] octets;

    private MacAddress(byte[] octets) {
        this.octets = octets;
    }

    public static MacAddress of(byte[] octets) {
        if (octets.length != LENGTH) {
            throw new IllegalArgumentException("a MAC address has 6 octets, not " + octets.length);
        }
        return new MacAddress(octets.clone());
    }

    /** Parses "02:00:00:00:00:01" (also with '-' separators). */
    public static MacAddress parse(String text) {
        // iproute2's vdpa (ll_addr_a2n) splits on ':' only and wants exactly six octets of one or two hex
        // digits each ("02-00-..." and a seventh octet are refused; "…:0" is octet 0x00, as there)
        String[] parts = text.trim().split(":", -1);
        if (parts.length != LENGTH) {
            throw new IllegalArgumentException("not a MAC address: \"" + text + "\" (expected six hex octets like 02:00:00:00:00:01)");
        }
        byte[] b = new byte[LENGTH];
        for (int i = 0; i < LENGTH; i++) {
            if (parts[i].isEmpty() || parts[i].length() > 2 || !parts[i].matches("[0-9a-fA-F]+")) {
                throw new IllegalArgumentException("not a MAC address: \"" + text + "\" (octet \"" + parts[i] + "\")");
            }
            b[i] = (byte) Integer.parseInt(parts[i], 16);
        }
        return new MacAddress(b);
    }

    public byte[] octets() {
        return octets.clone();
    }

    public boolean isMulticast() {
        return (octets[0] & 1) != 0;
    }

    public boolean isZero() {
        for (byte b : octets) {
            if (b != 0) {
                return false;
            }
        }
        return true;
    }

    /** The kernel's is_valid_ether_addr: not multicast, not all zero. */
    public boolean isValidUnicast() {
        return !isMulticast() && !isZero();
    }

    @Override
    public String toString() {
        HexFormat hex = HexFormat.ofDelimiter(":");
        return hex.formatHex(octets);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MacAddress m && Arrays.equals(m.octets, octets);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(octets);
    }
}
