package org.vdpactl.fake.state;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;

import com.fasterxml.jackson.annotation.JsonInclude;
import org.vdpactl.fake.bus.Provisioning;

/**
 * What is plugged into a fake kernel: management devices and the vdpa devices created on them.
 * This is also the persisted form of the shared fake state (see {@link FakeStateStore}).
 *
 * @param mgmtdevs management devices in registration order
 * @param devices  vdpa devices in creation order
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Inventory(List<Mgmt> mgmtdevs, List<Device> devices) {

    public Inventory {
        mgmtdevs = List.copyOf(mgmtdevs == null ? List.of() : mgmtdevs);
        devices = List.copyOf(devices == null ? List.of() : devices);
    }

    // equals and hashCode of these four records are written out: a record's own are bootstrapped at their first call
    // (java.lang.runtime.ObjectMethods spins method handles), and a shared fake compares its inventory once per command
    // when it closes (FakeKernel.saveState): that bootstrap was 4 % of `fake dev list`'s CPU (InventoryEqualityTest)
    @Override
    public boolean equals(Object o) {
        return o instanceof Inventory i && mgmtdevs.equals(i.mgmtdevs) && devices.equals(i.devices);
    }

    @Override
    public int hashCode() {
        return 31 * mgmtdevs.hashCode() + devices.hashCode();
    }

    /**
     * @param profile device profile ("vdpasim_net", "vdpasim_blk", "mlx5")
     * @param bus     bus name ("pci") or null
     * @param dev     device name ("0000:08:00.2"); null = the profile's default
     * @param preset  driver-model preset ("mlx5-612") or null for the profile's default
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Mgmt(String profile, String bus, String dev, String preset, Function function) {

        /** A management device whose PCI function (if any) is as fresh. */
        public Mgmt(String profile, String bus, String dev, String preset) {
            this(profile, bus, dev, preset, null);
        }

        /** This management device with another function state (null: a fresh function). */
        public Mgmt withFunction(Function f) {
            return new Mgmt(profile, bus, dev, preset, f == null || f.unchanged() ? null : f);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Mgmt m && Objects.equals(profile, m.profile) && Objects.equals(bus, m.bus)
                    && Objects.equals(dev, m.dev) && Objects.equals(preset, m.preset) && Objects.equals(function, m.function);
        }

        @Override
        public int hashCode() {
            return Objects.hash(profile, bus, dev, preset, function);
        }

        /** What names the management device across saves: everything but its function's state. */
        Mgmt key() {
            return function == null ? this : new Mgmt(profile, bus, dev, preset, null);
        }
    }

    /**
     * The PCI function behind a hardware management device as the administrator left it (the fake's
     * {@code devlink port function set}); each field null while it is as on a fresh function.
     *
     * @param mac  the function's MAC "02:00:00:00:00:07" (devlink's hw_addr), or null for none (all zeros)
     * @param mtu  the vport MTU when not 1500 (set by the administrator or left by a dev add with an MTU), or null
     * @param link "down" when the port's link is down, or null (up)
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Function(String mac, Integer mtu, String link) {
        /** The link value of a port that is down. */
        public static final String DOWN = "down";

        @Override
        public boolean equals(Object o) {
            return o instanceof Function f && Objects.equals(mac, f.mac) && Objects.equals(mtu, f.mtu) && Objects.equals(link, f.link);
        }

        @Override
        public int hashCode() {
            return Objects.hash(mac, mtu, link);
        }

        /** Nothing differs from a fresh function. */
        public boolean unchanged() {
            return mac == null && mtu == null && link == null;
        }

        /**
         * Three-way merge per attribute: what this process changed from {@code base} to {@code mine} wins, every
         * attribute it left alone keeps what another process saved meanwhile ({@code disk}). Null arguments are fresh
         * functions.
         */
        static Function merge(Function disk, Function base, Function mine) {
            Function d = disk == null ? FRESH : disk;
            Function b = base == null ? FRESH : base;
            Function m = mine == null ? FRESH : mine;
            return new Function(Objects.equals(m.mac, b.mac) ? d.mac : m.mac,
                    Objects.equals(m.mtu, b.mtu) ? d.mtu : m.mtu,
                    Objects.equals(m.link, b.link) ? d.link : m.link);
        }

        private static final Function FRESH = new Function(null, null, null);
    }

    /**
     * @param name       vdpa device name
     * @param mgmtdev    the mgmtdev's display name ("pci/0000:08:00.2", "vdpasim_net")
     * @param mac        provisioned MAC "02:00:00:00:00:01", or null
     * @param mtu        provisioned MTU, or null
     * @param maxVqPairs provisioned max_vqp, or null
     * @param features   provisioned device features "0x…", or null
     * @param minor      char-device minor (null = lowest free)
     * @param configMac  the MAC now in the config space when it differs from the provisioned one (ATTR_SET, SET_CONFIG,
     *                   the CVQ's MAC_ADDR_SET)
     * @param attrMac    the MAC the last DEV_ATTR_SET gave ({@code vdpa dev set mac}), or null: a restore repeats it
     *                   through the driver (7.2's mlx5 then offers F_MAC again), while a MAC from the CVQ is only
     *                   written back into the config space
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Device(String name, String mgmtdev, String mac, Integer mtu, Integer maxVqPairs, String features,
                         Integer minor, String configMac, String attrMac) {

        /** A device no DEV_ATTR_SET touched. */
        public Device(String name, String mgmtdev, String mac, Integer mtu, Integer maxVqPairs, String features,
                      Integer minor, String configMac) {
            this(name, mgmtdev, mac, mtu, maxVqPairs, features, minor, configMac, null);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Device d && Objects.equals(name, d.name) && Objects.equals(mgmtdev, d.mgmtdev)
                    && Objects.equals(mac, d.mac) && Objects.equals(mtu, d.mtu) && Objects.equals(maxVqPairs, d.maxVqPairs)
                    && Objects.equals(features, d.features) && Objects.equals(minor, d.minor)
                    && Objects.equals(configMac, d.configMac) && Objects.equals(attrMac, d.attrMac);
        }

        @Override
        public int hashCode() {
            return Objects.hash(name, mgmtdev, mac, mtu, maxVqPairs, features, minor, configMac, attrMac);
        }

        public Provisioning provisioning() {
            return new Provisioning(mac == null ? null : parseMac(mac), mtu, maxVqPairs,
                    features == null ? null : Long.parseUnsignedLong(features.replaceFirst("^0[xX]", ""), 16));
        }

        public static Device of(String name, String mgmtdev, Provisioning p, Integer minor, byte[] configMac) {
            return of(name, mgmtdev, p, minor, configMac, null);
        }

        public static Device of(String name, String mgmtdev, Provisioning p, Integer minor, byte[] configMac,
                                byte[] attrMac) {
            return new Device(name, mgmtdev, p.mac() == null ? null : formatMac(p.mac()), p.mtu(), p.maxVqPairs(),
                    p.features() == null ? null : "0x" + Long.toHexString(p.features()), minor,
                    configMac == null ? null : formatMac(configMac), attrMac == null ? null : formatMac(attrMac));
        }

        /** This device with another minor (everything else kept). */
        public Device withMinor(Integer newMinor) {
            return new Device(name, mgmtdev, mac, mtu, maxVqPairs, features, newMinor, configMac, attrMac);
        }
    }

    /** No devices at all. */
    public static Inventory empty() {
        return new Inventory(List.of(), List.of());
    }

    /**
     * The default inventory of a fresh fake: vdpasim_net with vdpa0 (MAC 02:00:00:00:00:01) and
     * vdpasim_blk with vdpa1 — the verified kernel's setup, so they get vhost-vdpa-0 and -1 — then four
     * ConnectX-like mlx5 mgmtdevs pci/0000:08:00.2 … .5 (no preset named: the kernel profile's mlx5_vdpa
     * brings its own, mlx5-pre612 on 6.1, mlx5-612 later), each with one device of
     * 16 queue pairs, mlx5-0 … mlx5-3.
     */
    public static Inventory defaults() {
        List<Mgmt> m = new ArrayList<>();
        List<Device> d = new ArrayList<>();
        m.add(new Mgmt("vdpasim_net", null, "vdpasim_net", null));
        m.add(new Mgmt("vdpasim_blk", null, "vdpasim_blk", null));
        d.add(new Device("vdpa0", "vdpasim_net", "02:00:00:00:00:01", null, null, null, null, null));
        d.add(new Device("vdpa1", "vdpasim_blk", null, null, null, null, null, null));
        for (int i = 0; i < 4; i++) {
            String pci = "0000:08:00." + (2 + i);
            m.add(new Mgmt("mlx5", "pci", pci, null));
            d.add(new Device("mlx5-" + i, "pci/" + pci, null, null, 16, null, null, null));
        }
        return new Inventory(m, d);
    }

    public static byte[] parseMac(String mac) {
        String hex = mac.replace(":", "");
        if (hex.length() != 12) {
            throw new IllegalArgumentException("not a MAC address: " + mac);
        }
        return HexFormat.of().parseHex(hex);
    }

    public static String formatMac(byte[] mac) {
        return HexFormat.ofDelimiter(":").formatHex(mac);
    }
}
