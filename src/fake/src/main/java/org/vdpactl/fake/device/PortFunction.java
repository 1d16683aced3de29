package org.vdpactl.fake.device;

import java.util.Arrays;

/**
 * The PCI function (VF or SF) behind a hardware vdpa management device, as the administrator sets it outside
 * vdpa: the fake's equivalent of {@code devlink port function set ... hw_addr} (or the PF's {@code ip link set
 * vf N mac}), the NIC vport's MTU and the port's link. What the parent driver reads from it at dev add (mlx5:
 * mlx5_query_nic_vport_mac_address, query_mtu, get_link_state) and what a provisioned MTU leaves on it
 * (config_func_mtu) outlive the vdpa device: the next device on the function finds them. A link change is a
 * port event the driver's notifier sees ({@link FakeVdpaDevice#portLinkChanged}).
 *
 * <p>Guarded by the bus: read at dev add, changed through {@link org.vdpactl.fake.FakeKernel}'s function setters;
 * a shared kernel saves it with its management device in the state file, so the next process finds it.
 */
public final class PortFunction {
    /** The vport MTU of a fresh function (the NIC's default Ethernet MTU). */
    public static final int DEFAULT_MTU = 1500;
    private byte[] mac = new byte[6];
    private int mtu = DEFAULT_MTU;
    private boolean linkUp = true;

    /** The function's MAC (all zeros unless the administrator set one). */
    public synchronized byte[] mac() {
        return mac.clone();
    }

    /** devlink port function set hw_addr. */
    public synchronized void setMac(byte[] newMac) {
        if (newMac == null || newMac.length != 6) {
            throw new IllegalArgumentException("a function MAC has 6 bytes");
        }
        mac = newMac.clone();
    }

    /** Whether the administrator set a non-zero MAC. */
    public synchronized boolean hasMac() {
        return !Arrays.equals(mac, new byte[6]);
    }

    /** The vport MTU. */
    public synchronized int mtu() {
        return mtu;
    }

    /** The vport MTU set (by the administrator, or by a dev add that provisions one: config_func_mtu). */
    public synchronized void setMtu(int newMtu) {
        if (newMtu < 68 || newMtu > 0xFFFF) {
            throw new IllegalArgumentException("MTU " + newMtu + " outside 68..65535");
        }
        mtu = newMtu;
    }

    /** The port's link (VPORT_STATE_UP). */
    public synchronized boolean linkUp() {
        return linkUp;
    }

    /** Sets the link; returns whether it changed (a port change event). */
    synchronized boolean setLinkUp(boolean up) {
        boolean changed = linkUp != up;
        linkUp = up;
        return changed;
    }

    /**
     * The function as a saved state left it (the next vdpactl process finds what the administrator set): no port
     * event, no device sees a change.
     */
    public synchronized void restore(byte[] savedMac, int savedMtu, boolean savedLinkUp) {
        setMac(savedMac);
        setMtu(savedMtu);
        linkUp = savedLinkUp;
    }

    /** Whether this is a fresh function (nothing to persist). */
    public synchronized boolean isDefault() {
        return !hasMac() && mtu == DEFAULT_MTU && linkUp;
    }
}
