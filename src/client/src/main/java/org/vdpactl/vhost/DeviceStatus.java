package org.vdpactl.vhost;

import java.util.ArrayList;
import java.util.List;

import org.vdpactl.ffi.gen.vhost.vhost_h;

/**
 * The virtio device status byte (VHOST_VDPA_GET/SET_STATUS). The kernel only lets bits be added;
 * the one way to clear bits is a reset to 0.
 *
 * @param bits the status byte (0..255)
 */
public record DeviceStatus(int bits) {
    public static final int ACKNOWLEDGE = vhost_h.VIRTIO_CONFIG_S_ACKNOWLEDGE();
    public static final int DRIVER = vhost_h.VIRTIO_CONFIG_S_DRIVER();
    public static final int DRIVER_OK = vhost_h.VIRTIO_CONFIG_S_DRIVER_OK();
    public static final int FEATURES_OK = vhost_h.VIRTIO_CONFIG_S_FEATURES_OK();
    public static final int NEEDS_RESET = vhost_h.VIRTIO_CONFIG_S_NEEDS_RESET();
    public static final int FAILED = vhost_h.VIRTIO_CONFIG_S_FAILED();

    public static final DeviceStatus RESET = new DeviceStatus(0);

    private static final int[] FLAGS = {ACKNOWLEDGE, DRIVER, DRIVER_OK, FEATURES_OK, NEEDS_RESET, FAILED};
    private static final String[] NAMES = {"ACKNOWLEDGE", "DRIVER", "DRIVER_OK", "FEATURES_OK", "NEEDS_RESET", "FAILED"};

    public DeviceStatus {
        if (bits < 0 || bits > 0xFF) {
            throw new IllegalArgumentException("status is a byte: " + bits);
        }
    }

    public static DeviceStatus of(int... flags) {
        int b = 0;
        for (int f : flags) {
            b |= f;
        }
        return new DeviceStatus(b);
    }

    public boolean has(int flag) {
        return (bits & flag) == flag;
    }

    public DeviceStatus with(int flag) {
        return new DeviceStatus(bits | flag);
    }

    /** Flag names in bit order; unknown bits as "bit N". */
    public List<String> names() {
        List<String> out = new ArrayList<>();
        for (int bit = 0; bit < 8; bit++) {
            int m = 1 << bit;
            if ((bits & m) == 0) {
                continue;
            }
            String name = "bit " + bit;
            for (int i = 0; i < FLAGS.length; i++) {
                if (FLAGS[i] == m) {
                    name = NAMES[i];
                }
            }
            out.add(name);
        }
        return out;
    }

    /** "0x0f (ACKNOWLEDGE|DRIVER|DRIVER_OK|FEATURES_OK)" or "0x00 (reset)". */
    @Override
    public String toString() {
        return String.format("0x%02x (%s)", bits, bits == 0 ? "reset" : String.join("|", names()));
    }
}
