package org.vdpactl.lane.qemu;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The part of a guest's virtio-pci driver that makes QEMU start its vhost backend, played over
 * qtest: finds the modern virtio device on bus 0 through the configuration ports (0xcf8/0xcfc),
 * places its BARs, walks the vendor capabilities (virtio 1.x §4.1.4), negotiates features
 * (everything offered but event index and packed rings, as vdpactl's rehearsal does), places every
 * virtqueue's split ring in guest RAM and sets DRIVER_OK. No guest CPU runs: the machine's firmware
 * only halts (see {@link QemuUnderTest}).
 */
public final class VirtioPciGuestDriver {
    private static final int CONFIG_ADDRESS = 0xcf8;
    private static final int CONFIG_DATA = 0xcfc;
    private static final int VIRTIO_VENDOR = 0x1af4;
    /** Where the BARs go: inside q35's 32-bit PCI hole, above the MMCONFIG window at 0xb0000000. */
    private static final long BAR_BASE = 0xe000_0000L;
    /** Where the rings go in guest RAM (one page per virtqueue, 16 entries each). */
    private static final long RING_BASE = 0x10_0000L;
    static final int QUEUE_SIZE = 16;

    static final int STATUS_ACKNOWLEDGE = 1;
    static final int STATUS_DRIVER = 2;
    public static final int STATUS_DRIVER_OK = 4;
    static final int STATUS_FEATURES_OK = 8;
    private static final int VIRTIO_NET_F_MQ = 22;
    private static final int VIRTIO_RING_F_EVENT_IDX = 29;
    private static final int VIRTIO_F_RING_PACKED = 34;

    private final QtestConnection qtest;
    /** Which device of the kind this driver drives (0: the first on the bus); each gets its own BARs and rings. */
    private final int index;
    private final long barBase;
    private final long ringBase;
    private int devfn = -1;
    private long common;
    private long notifyBase;
    private long notifyMultiplier;
    /** The device-specific configuration (struct virtio_net_config for a net device), as the guest reads it. */
    private long deviceConfig;
    private int queues;
    private long features;

    public VirtioPciGuestDriver(QtestConnection qtest) {
        this(qtest, 0);
    }

    /** The driver of the index-th device of the kind {@link #find} looks for (several netdevs on one VM). */
    public VirtioPciGuestDriver(QtestConnection qtest, int index) {
        this.qtest = qtest;
        this.index = index;
        this.barBase = BAR_BASE + 0x10_0000L * index; // 1 MiB of BAR space per device (a modern virtio-net needs 20 KiB)
        this.ringBase = RING_BASE + 0x1_0000L * index; // 16 virtqueues of one page per device
    }

    private long cfgRead(int reg) throws IOException {
        qtest.outl(CONFIG_ADDRESS, 0x8000_0000L | ((long) devfn << 8) | (reg & 0xfc));
        long v = qtest.inl(CONFIG_DATA);
        return (v >>> ((reg & 3) * 8));
    }

    private void cfgWrite32(int reg, long value) throws IOException {
        qtest.outl(CONFIG_ADDRESS, 0x8000_0000L | ((long) devfn << 8) | reg);
        qtest.outl(CONFIG_DATA, value & 0xffff_ffffL);
    }

    /** Finds the index-th virtio device with this modern device id (0x1041 = net) on bus 0 (the first by default). */
    public void find(int deviceId) throws IOException {
        int seen = 0;
        for (int slot = 0; slot < 32; slot++) {
            devfn = slot << 3;
            long id = cfgRead(0) & 0xffff_ffffL;
            if ((id & 0xffff) == VIRTIO_VENDOR && (id >>> 16) == deviceId && seen++ == index) {
                return;
            }
        }
        throw new IOException("no virtio device 0x" + Integer.toHexString(deviceId) + " number " + index + " on PCI bus 0");
    }

    /** Sizes and places every memory BAR, enables memory decoding and bus mastering, reads the capabilities. */
    public void map() throws IOException {
        long[] bars = new long[6];
        long next = barBase;
        for (int bar = 0; bar < 6; bar++) {
            int reg = 0x10 + 4 * bar;
            long orig = cfgRead(reg) & 0xffff_ffffL;
            if ((orig & 1) != 0) {
                continue; // I/O BAR: not used by a modern device
            }
            cfgWrite32(reg, 0xffff_ffffL);
            long mask = cfgRead(reg) & 0xffff_fff0L;
            boolean wide = ((orig >>> 1) & 3) == 2;
            if (mask == 0) {
                if (wide) {
                    bar++;
                }
                continue;
            }
            long size = (~mask + 1) & 0xffff_ffffL;
            next = (next + size - 1) & -size;
            cfgWrite32(reg, next);
            bars[bar] = next;
            if (wide) {
                cfgWrite32(reg + 4, 0);
                bar++;
            }
            next += size;
        }
        long command = cfgRead(0x04) & 0xffff;
        cfgWrite32(0x04, command | 0x6); // memory space + bus master
        capabilities(bars);
    }

    /**
     * Finds the capabilities of a device whose BARs a driver placed already: a migrated VM's device on the
     * destination QEMU, whose PCI configuration (BARs, command register) came with the migration stream.
     */
    public void attach() throws IOException {
        long[] bars = new long[6];
        for (int bar = 0; bar < 6; bar++) {
            long v = cfgRead(0x10 + 4 * bar) & 0xffff_ffffL;
            if ((v & 1) != 0) {
                continue;
            }
            bars[bar] = v & 0xffff_fff0L;
            if (((v >>> 1) & 3) == 2 && bar < 5) {
                bars[bar] |= (cfgRead(0x10 + 4 * (bar + 1)) & 0xffff_ffffL) << 32;
                bar++;
            }
        }
        capabilities(bars);
    }

    private void capabilities(long[] bars) throws IOException {
        int cap = (int) (cfgRead(0x34) & 0xfc);
        while (cap != 0) {
            int vndr = (int) (cfgRead(cap) & 0xff);
            int nextCap = (int) (cfgRead(cap + 1) & 0xff);
            if (vndr == 0x09) {
                int type = (int) (cfgRead(cap + 3) & 0xff);
                int bar = (int) (cfgRead(cap + 4) & 0xff);
                long offset = cfgRead(cap + 8) & 0xffff_ffffL;
                if (bar < 6) {
                    long at = bars[bar] + offset;
                    if (type == 1) {
                        common = at;
                    } else if (type == 2) {
                        notifyBase = at;
                        notifyMultiplier = cfgRead(cap + 16) & 0xffff_ffffL;
                    } else if (type == 4) {
                        deviceConfig = at;
                    }
                }
            }
            cap = nextCap & 0xfc;
        }
        if (common == 0 || notifyBase == 0) {
            throw new IOException("the device has no modern common or notify capability (disable-legacy=on?)");
        }
    }

    private void status(int value) throws IOException {
        qtest.write("b", common + 0x14, value);
    }

    public int status() throws IOException {
        return (int) qtest.read("b", common + 0x14);
    }

    /** Reset, ACKNOWLEDGE, DRIVER, features, FEATURES_OK (checked), every ring placed and enabled. Returns the features. */
    public long negotiate() throws IOException {
        status(0);
        status(STATUS_ACKNOWLEDGE);
        status(STATUS_ACKNOWLEDGE | STATUS_DRIVER);
        long offered = 0;
        for (int half = 0; half < 2; half++) {
            qtest.write("l", common, half);
            offered |= (qtest.read("l", common + 0x04) & 0xffff_ffffL) << (32 * half);
        }
        features = offered & ~(1L << VIRTIO_RING_F_EVENT_IDX) & ~(1L << VIRTIO_F_RING_PACKED);
        for (int half = 0; half < 2; half++) {
            qtest.write("l", common + 0x08, half);
            qtest.write("l", common + 0x0c, (features >>> (32 * half)) & 0xffff_ffffL);
        }
        status(STATUS_ACKNOWLEDGE | STATUS_DRIVER | STATUS_FEATURES_OK);
        if ((status() & STATUS_FEATURES_OK) == 0) {
            throw new IOException("the device refused features 0x" + Long.toHexString(features));
        }
        queues = (int) qtest.read("w", common + 0x12);
        for (int q = 0; q < queues; q++) {
            long ring = ringBase + 0x1000L * q;
            qtest.memset(ring, 0x1000);
            qtest.write("w", common + 0x16, q);
            qtest.write("w", common + 0x18, QUEUE_SIZE);
            qtest.write("q", common + 0x20, ring); // descriptor table: 16 * 16 bytes
            qtest.write("q", common + 0x28, ring + 0x100); // driver (avail) ring
            qtest.write("q", common + 0x30, ring + 0x200); // device (used) ring
            qtest.write("w", common + 0x1c, 1);
        }
        return features;
    }

    public void driverOk() throws IOException {
        status(STATUS_ACKNOWLEDGE | STATUS_DRIVER | STATUS_FEATURES_OK | STATUS_DRIVER_OK);
    }

    /** The guest's view of the device config: for net, the MAC (bytes 0-5) QEMU passes through from the vDPA device. */
    public String configMac() throws IOException {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < 6; i++) {
            b.append(i == 0 ? "" : ":").append(String.format("%02x", qtest.read("b", deviceConfig + i) & 0xff));
        }
        return b.toString();
    }

    /** struct virtio_net_config's mtu (offset 10), meaningful when the guest negotiated VIRTIO_NET_F_MTU. */
    public int configMtu() throws IOException {
        return (int) (qtest.read("w", deviceConfig + 10) & 0xffff);
    }

    /** The features the guest negotiated ({@link #negotiate}). */
    public long features() {
        return features;
    }

    int queues() {
        return queues;
    }

    boolean multiqueue() {
        return (features & (1L << VIRTIO_NET_F_MQ)) != 0;
    }

    /**
     * VIRTIO_NET_CTRL_MQ_VQ_PAIRS_SET through the control queue (the last virtqueue), as a guest's
     * virtio-net driver sends it after DRIVER_OK; waits for the used ring and returns the ack byte
     * (0 = VIRTIO_NET_OK).
     */
    int setQueuePairs(int pairs) throws IOException, InterruptedException {
        int cvq = queues - 1;
        long ring = ringBase + 0x1000L * cvq;
        long buf = ring + 0x800;
        qtest.memwrite(buf, new byte[] {4, 0}); // class MQ, cmd VQ_PAIRS_SET
        qtest.memwrite(buf + 2, new byte[] {(byte) pairs, (byte) (pairs >>> 8)});
        qtest.memwrite(buf + 4, new byte[] {(byte) 0xff});
        ByteBuffer d = ByteBuffer.allocate(48).order(ByteOrder.LITTLE_ENDIAN);
        d.putLong(buf).putInt(2).putShort((short) 1).putShort((short) 1); // NEXT
        d.putLong(buf + 2).putInt(2).putShort((short) 1).putShort((short) 2);
        d.putLong(buf + 4).putInt(1).putShort((short) 2).putShort((short) 0); // WRITE
        qtest.memwrite(ring, d.array());
        qtest.write("w", ring + 0x100 + 4, 0); // avail.ring[0] = descriptor 0
        qtest.write("w", ring + 0x100 + 2, 1); // avail.idx = 1
        qtest.write("w", common + 0x16, cvq);
        long notifyOff = qtest.read("w", common + 0x1e);
        qtest.write("w", notifyBase + notifyOff * notifyMultiplier, cvq);
        for (int i = 0; i < 2000 && qtest.read("w", ring + 0x200 + 2) == 0; i++) {
            Thread.sleep(5);
        }
        if (qtest.read("w", ring + 0x200 + 2) == 0) {
            throw new IOException("the control queue did not answer VQ_PAIRS_SET");
        }
        return (int) qtest.read("b", buf + 4);
    }
}
