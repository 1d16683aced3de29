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

    /**
     * Parses any form iproute2's vdpa accepts as a MAC ("02:00:00:00:00:01", also "02:00", "10.0.0.1",
     * "002:0x2:..."), to the bytes it would send; see {@link IprouteMacSyntax} for the forms refused.
     */
    public static MacAddress parse(String text) {
        return IprouteMacSyntax.read(text).address();
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
