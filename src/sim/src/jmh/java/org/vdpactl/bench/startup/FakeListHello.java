package org.vdpactl.bench.startup;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The floor of {@code vdpactl --backend fake dev list} (scripts/lib/bench-startup.sh): what any JVM program doing what
 * that command must do at start costs, with nothing of vdpactl in it. A picocli command (as {@link PicocliHello})
 * reads a state file with the JDK, takes the device names out of it by a scan (no JSON reader), and lists them through
 * a netlink round trip with an in-process kernel behind a socket interface, as the fake sits under vdpactl's seam: a
 * dump request encoded into native memory, one reply message per device written by the kernel side into the reader's
 * buffer, both decoded with the FFM memory API's layouts. No downcall, no logging, no codec tables, no profiles.
 */
public final class FakeListHello implements Callable<Integer> {
    private static final ValueLayout.OfInt U32 = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfShort U16 = ValueLayout.JAVA_SHORT_UNALIGNED;
    private static final int NLMSG_HDRLEN = 16;
    private static final int GENL_HDRLEN = 4;
    private static final short NLMSG_DONE = 3;
    private static final short VDPA_FAMILY = 19;
    private static final byte VDPA_CMD_DEV_GET = 5;
    private static final short VDPA_ATTR_DEV_NAME = 5;
    private static final short NLM_F_DUMP = 0x300;

    /** {@code --state}. */
    Path state;

    /** One end of a datagram socket, as the fake's netlink socket is to vdpactl's client. */
    interface Socket {
        long send(MemorySegment message);

        long receive(MemorySegment buffer);
    }

    /** The kernel side: answers a dump request with one message per device, then NLMSG_DONE. */
    static final class InProcessKernel implements Socket {
        private final List<String> devices;
        private final List<byte[]> queue = new ArrayList<>();

        InProcessKernel(List<String> devices) {
            this.devices = devices;
        }

        @Override
        public long send(MemorySegment m) {
            int seq = m.get(U32, 8);
            if (m.get(U16, 4) != VDPA_FAMILY || m.get(ValueLayout.JAVA_BYTE, NLMSG_HDRLEN) != VDPA_CMD_DEV_GET) {
                return -22;
            }
            try (Arena arena = Arena.ofConfined()) {
                for (String d : devices) {
                    byte[] name = (d + "\0").getBytes(StandardCharsets.UTF_8);
                    int attrLen = 4 + name.length;
                    int len = NLMSG_HDRLEN + GENL_HDRLEN + align(attrLen);
                    MemorySegment r = arena.allocate(len);
                    header(r, len, VDPA_FAMILY, seq);
                    r.set(ValueLayout.JAVA_BYTE, NLMSG_HDRLEN, VDPA_CMD_DEV_GET);
                    r.set(U16, NLMSG_HDRLEN + GENL_HDRLEN, (short) attrLen);
                    r.set(U16, NLMSG_HDRLEN + GENL_HDRLEN + 2, VDPA_ATTR_DEV_NAME);
                    MemorySegment.copy(name, 0, r, ValueLayout.JAVA_BYTE, NLMSG_HDRLEN + GENL_HDRLEN + 4, name.length);
                    queue.add(r.toArray(ValueLayout.JAVA_BYTE));
                }
                MemorySegment done = arena.allocate(NLMSG_HDRLEN + 4);
                header(done, NLMSG_HDRLEN + 4, NLMSG_DONE, seq);
                queue.add(done.toArray(ValueLayout.JAVA_BYTE));
            }
            return m.byteSize();
        }

        @Override
        public long receive(MemorySegment buffer) {
            byte[] next = queue.removeFirst();
            MemorySegment.copy(next, 0, buffer, ValueLayout.JAVA_BYTE, 0, next.length);
            return next.length;
        }
    }

    @Override
    public Integer call() throws IOException {
        Socket socket = new InProcessKernel(names(Files.readString(state)));
        StringBuilder out = new StringBuilder();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment request = arena.allocate(NLMSG_HDRLEN + GENL_HDRLEN);
            header(request, (int) request.byteSize(), VDPA_FAMILY, 1);
            request.set(U16, 6, (short) (1 | NLM_F_DUMP));
            request.set(ValueLayout.JAVA_BYTE, NLMSG_HDRLEN, VDPA_CMD_DEV_GET);
            request.set(ValueLayout.JAVA_BYTE, NLMSG_HDRLEN + 1, (byte) 1);
            if (socket.send(request) < 0) {
                return 1;
            }
            MemorySegment buffer = arena.allocate(8192);
            while (true) {
                long n = socket.receive(buffer);
                if (n < NLMSG_HDRLEN || buffer.get(U16, 4) == NLMSG_DONE) {
                    break;
                }
                int attrLen = Short.toUnsignedInt(buffer.get(U16, NLMSG_HDRLEN + GENL_HDRLEN));
                out.append(buffer.asSlice(NLMSG_HDRLEN + GENL_HDRLEN + 4, attrLen - 4).getString(0)).append(": type network\n");
            }
        }
        System.out.print(out);
        return 0;
    }

    private static void header(MemorySegment m, int len, short type, int seq) {
        m.set(U32, 0, len);
        m.set(U16, 4, type);
        m.set(U32, 8, seq);
    }

    private static int align(int n) {
        return (n + 3) & ~3;
    }

    /** The values of the "name" members, by a scan: the floor of reading a state, not a JSON reader. */
    static List<String> names(String json) {
        List<String> names = new ArrayList<>();
        for (int i = json.indexOf("\"name\""); i >= 0; i = json.indexOf("\"name\"", i + 1)) {
            int open = json.indexOf('"', json.indexOf(':', i) + 1);
            names.add(json.substring(open + 1, json.indexOf('"', open + 1)));
        }
        return names;
    }

    public static void main(String[] args) {
        CommandSpec spec = CommandSpec.create().name("fake-list").mixinStandardHelpOptions(true).version("1");
        spec.usageMessage().description("Lists the devices of a state file.");
        spec.addOption(OptionSpec.builder("--state").type(Path.class).required(true).description("The state file (JSON with \"name\" members).")
                .build());
        CommandLine line = new CommandLine(spec);
        line.setExecutionStrategy(parsed -> PicocliHello.run(parsed, () -> {
            FakeListHello command = new FakeListHello();
            command.state = parsed.matchedOptionValue("--state", null);
            return command.call();
        }));
        System.exit(line.execute(args));
    }
}
