package org.vdpactl.cli.mgmt;

import java.util.Locale;
import org.vdpactl.mgmt.VirtioNames;

/**
 * {@code --features} values: a number (0x308830028, decimal) or names joined by ',' or '|'
 * (VIRTIO_NET_F_MAC, NET_F_MAC, MAC, VERSION_1, bit_40), as `vdpa mgmtdev show` prints them.
 */
final class FeatureArgument {
    private FeatureArgument() {
    }

    static long parse(String text, int deviceId) {
        String t = text.trim();
        try {
            if (t.startsWith("0x") || t.startsWith("0X")) {
                return Long.parseUnsignedLong(t.substring(2), 16);
            }
            if (!t.isEmpty() && t.chars().allMatch(Character::isDigit)) {
                return Long.parseUnsignedLong(t);
            }
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--features: '" + text + "' is not a 64-bit feature mask");
        }
        long bits = 0;
        for (String raw : t.split("[,|]")) {
            String name = raw.trim().toUpperCase(Locale.ROOT);
            if (name.isEmpty()) {
                continue;
            }
            bits |= 1L << bitOf(name, deviceId, text);
        }
        if (bits == 0) {
            throw new IllegalArgumentException("--features: no feature in '" + text + "'");
        }
        return bits;
    }

    /** VIRTIO_NET_F_MAC, NET_F_MAC and MAC are one name; VIRTIO_RING_F_EVENT_IDX is RING_EVENT_IDX. */
    private static String canonical(String name) {
        return name.replaceFirst("^VIRTIO_", "").replaceFirst("^RING_F_", "RING_").replaceFirst("^(NET_|BLK_)?F_", "");
    }

    private static int bitOf(String name, int deviceId, String text) {
        if (name.startsWith("BIT_")) {
            try {
                int b = Integer.parseInt(name.substring(4));
                if (b >= 0 && b < 64) {
                    return b;
                }
            } catch (NumberFormatException e) {
                // fall through to the error below
            }
        }
        String wanted = canonical(name);
        for (int bit = 0; bit < 64; bit++) {
            for (String known : VirtioNames.featureNames(1L << bit, deviceId)) {
                if (canonical(known.toUpperCase(Locale.ROOT)).equals(wanted)) {
                    return bit;
                }
            }
        }
        throw new IllegalArgumentException("--features: unknown feature '" + name + "' in '" + text
                + "' (use names as `vdpactl mgmtdev show` prints them, bit_N, or a hex mask)");
    }
}
