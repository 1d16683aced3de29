package org.vdpactl.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;
import org.vdpactl.fake.FakeKernel;
import org.vdpactl.fake.FakeProcess;
import org.vdpactl.fake.netlink.FakeNetlink;
import org.vdpactl.ffi.gen.netlink.netlink_h;
import org.vdpactl.ffi.gen.vhost.vhost_h;
import org.vdpactl.mgmt.DeviceSpec;
import org.vdpactl.mgmt.MacAddress;
import org.vdpactl.mgmt.VdpaAttribute;
import org.vdpactl.mgmt.VdpaCommand;
import org.vdpactl.mgmt.VdpaDevInfo;
import org.vdpactl.mgmt.VdpaNetlink;
import org.vdpactl.mgmt.VdpaReplies;
import org.vdpactl.netlink.MessageWriter;
import org.vdpactl.netlink.NetlinkDecoder;
import org.vdpactl.netlink.NetlinkMessage;

/**
 * The vdpa generic-netlink family: encoding a DEV_NEW request, decoding one DEV_GET reply, decoding the
 * datagrams of a {@value #DEVICES}-device dump, and that dump end to end ({@link VdpaNetlink#devices()}
 * through the fake kernel's netlink socket: request, the fake's dump callbacks, datagrams, decoding).
 * The replies decoded are the fake's own bytes, captured once in the set-up.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@Fork(value = 2, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class NetlinkBench {
    static final int DEVICES = 1000;
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    private FakeKernel kernel;
    private FakeProcess process;
    private VdpaNetlink netlink;
    private MessageWriter writer;
    private MacAddress mac;
    private byte[] oneReply;
    private List<byte[]> dumpDatagrams;

    @Setup(Level.Trial)
    public void populate() {
        kernel = FakeKernel.builder().build();
        FakeNetlink.install(kernel);
        process = kernel.newProcess();
        netlink = VdpaNetlink.open(process);
        int existing = netlink.devices().size();
        for (int i = existing; i < DEVICES; i++) {
            netlink.addDevice(DeviceSpec.of("bench" + i, "vdpasim_net"));
        }
        if (netlink.devices().size() != DEVICES) {
            throw new IllegalStateException("the fake holds " + netlink.devices().size() + " devices, expected " + DEVICES);
        }
        writer = new MessageWriter();
        mac = MacAddress.parse("02:00:00:00:00:42");
        String name = netlink.devices().get(0).name();
        oneReply = capture(NetlinkMessageFlags.REQUEST, w -> w.putString(VdpaAttribute.DEV_NAME.number(), name)).get(0);
        dumpDatagrams = capture(NetlinkMessageFlags.DUMP, w -> { });
    }

    /** Request flags of the two captures. */
    private enum NetlinkMessageFlags {
        REQUEST(netlink_h.NLM_F_REQUEST()),
        DUMP(netlink_h.NLM_F_REQUEST() | netlink_h.NLM_F_DUMP());

        final int flags;

        NetlinkMessageFlags(int flags) {
            this.flags = flags;
        }
    }

    /** Sends one DEV_GET and keeps every answering datagram up to the last (DONE for a dump). */
    private List<byte[]> capture(NetlinkMessageFlags flags, Consumer<MessageWriter> attrs) {
        int seq = netlink.socket().nextSeq();
        MessageWriter w = new MessageWriter().beginMessage(netlink.family().id(), flags.flags, seq, 0)
                .genlHeader(VdpaCommand.DEV_GET.number(), vhost_h.VDPA_GENL_VERSION());
        attrs.accept(w);
        w.endMessage();
        netlink.socket().sendRaw(w.toByteArray());
        List<byte[]> datagrams = new ArrayList<>();
        while (true) {
            byte[] d = netlink.socket().receiveRaw(TIMEOUT);
            datagrams.add(d);
            List<NetlinkMessage> ms = NetlinkDecoder.decode(d);
            boolean done = ms.stream().anyMatch(m -> m instanceof NetlinkMessage.DoneMessage || m instanceof NetlinkMessage.ErrorMessage);
            if (flags == NetlinkMessageFlags.REQUEST || done) {
                return datagrams;
            }
        }
    }

    @TearDown(Level.Trial)
    public void close() {
        netlink.close();
        process.close();
        kernel.close();
    }

    /** DEV_NEW with management device, name, MAC, MTU and max_vqp, as {@code VdpaNetlink.addDevice} writes it. */
    @Benchmark
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    public int encodeDevNew() {
        writer.reset().beginMessage(netlink.family().id(), netlink_h.NLM_F_REQUEST() | netlink_h.NLM_F_ACK(), 7, 0)
                .genlHeader(VdpaCommand.DEV_NEW.number(), vhost_h.VDPA_GENL_VERSION())
                .putString(VdpaAttribute.MGMTDEV_DEV_NAME.number(), "vdpasim_net")
                .putString(VdpaAttribute.DEV_NAME.number(), "vdpa7")
                .putAttribute(VdpaAttribute.DEV_NET_CFG_MACADDR.number(), mac.octets())
                .putU16(VdpaAttribute.DEV_NET_CFG_MTU.number(), 9000)
                .putU16(VdpaAttribute.DEV_NET_CFG_MAX_VQP.number(), 4);
        return writer.endMessage();
    }

    /** One DEV_GET reply datagram to a {@link VdpaDevInfo}. */
    @Benchmark
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    public VdpaDevInfo decodeDevGetReply() {
        return VdpaReplies.device(((NetlinkMessage.GenlMessage) NetlinkDecoder.decode(oneReply).get(0)).attributes());
    }

    /** Every datagram of the captured dump to {@value #DEVICES} {@link VdpaDevInfo}s. */
    @Benchmark
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public void decodeDump1000(Blackhole bh) {
        for (byte[] d : dumpDatagrams) {
            for (NetlinkMessage m : NetlinkDecoder.decode(d)) {
                if (m instanceof NetlinkMessage.GenlMessage g) {
                    bh.consume(VdpaReplies.device(g.attributes()));
                }
            }
        }
    }

    /** {@link VdpaNetlink#devices()}: the dump end to end through the fake's socket. */
    @Benchmark
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public List<VdpaDevInfo> dump1000Devices() {
        return netlink.devices();
    }
}
