package org.vdpactl.lane.qemu;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.vdpactl.vhost.IotlbCodec;
import org.vdpactl.vhost.IotlbMessage;
import org.vdpactl.vhost.IotlbMessageType;
import org.vdpactl.vhost.VhostIoctl;

/**
 * QEMU's calls on vhost-vdpa nodes, read from an strace log ({@code -f -tt -X raw -xx -s 4096 -e
 * trace=openat,ioctl,write,close}). strace gives the ground truth (which ioctl, in which order, every
 * IOTLB message byte) but cannot decode the vhost structs an ioctl points to; QEMU's own
 * {@code vhost_vdpa_*} trace points, which QEMU writes to stderr in the same thread just before the
 * ioctl they describe (get_vring_base: just after), appear in the same log as write(2, ...) and give
 * the vq index and the status bits. Why strace: the lane kernel has no kprobes or vhost tracepoints,
 * and strace sees QEMU's calls without changing QEMU.
 */
public final class StraceCalls {
    private static final Pattern LINE = Pattern.compile(
            "^(\\d+)\\s+(\\d\\d:\\d\\d:\\d\\d\\.\\d+)\\s+(?:<\\.\\.\\. (\\w+) resumed>|(\\w+)\\()(.*?)(?:\\)\\s+=\\s+(-?\\d+|0x[0-9a-f]+).*)?$");
    private static final Pattern UNFINISHED = Pattern.compile("<unfinished \\.\\.\\.>\\s*$");
    private static final Pattern HEX_STRING = Pattern.compile("\"((?:\\\\x[0-9a-f]{2})*)\"");
    private static final Pattern INDEX = Pattern.compile("index: (\\d+)");
    private static final Pattern STATUS = Pattern.compile("status: 0x([0-9a-f]+)");

    /** Calls made on one node, in order, with the strace timestamps (ns since midnight). */
    record NodeTrace(String node, List<NodeCall> calls) {
    }

    private final Map<Integer, String> fdNode = new HashMap<>();
    private final Map<Integer, Integer> fdStatus = new HashMap<>();
    private final Map<Integer, List<String>> eventsByPid = new HashMap<>();
    private final Map<Integer, Integer> getBaseAwaitingIndex = new HashMap<>();
    private final Map<Integer, String> unfinished = new HashMap<>();
    private final Map<String, List<NodeCall>> calls = new HashMap<>();
    private final Map<String, List<String>> qemuEvents = new HashMap<>();

    public static StraceCalls parse(Path log) throws IOException {
        StraceCalls s = new StraceCalls();
        for (String line : Files.readAllLines(log)) {
            s.line(line);
        }
        return s;
    }

    /** The calls on node, in order (empty when QEMU never opened it). */
    public List<NodeCall> calls(String node) {
        return calls.getOrDefault(node, List.of());
    }

    private void line(String raw) {
        String line = raw;
        int pidEnd = line.indexOf(' ');
        if (pidEnd < 0) {
            return;
        }
        Integer pid = parseInt(line.substring(0, pidEnd));
        if (pid == null) {
            return;
        }
        if (UNFINISHED.matcher(line).find()) {
            unfinished.put(pid, line.replaceFirst("\\s*<unfinished \\.\\.\\.>\\s*$", ""));
            return;
        }
        Matcher m = LINE.matcher(line);
        if (!m.matches()) {
            return;
        }
        String syscall = m.group(4);
        String args = m.group(5);
        if (m.group(3) != null) { // "<... ioctl resumed>) = 0": the arguments were on the unfinished line
            String start = unfinished.remove(pid);
            Matcher s = start == null ? null : LINE.matcher(start + ") = " + m.group(6));
            if (s == null || !s.matches()) {
                return;
            }
            syscall = s.group(4);
            args = s.group(5);
        }
        String result = m.group(6);
        long at = LocalTime.parse(m.group(2)).toNanoOfDay();
        switch (syscall) {
            case "openat" -> opened(args, result);
            case "close" -> fdNode.remove(parseInt(args.trim()));
            case "write" -> written(pid, args, at);
            case "ioctl" -> ioctl(pid, args, at);
            default -> {
            }
        }
    }

    private static Integer parseInt(String s) {
        try {
            return Integer.valueOf(s.trim());
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static byte[] bytes(String args) {
        Matcher h = HEX_STRING.matcher(args);
        if (!h.find()) {
            return new byte[0];
        }
        return HexFormat.of().parseHex(h.group(1).replace("\\x", ""));
    }

    private void opened(String args, String result) {
        String path = new String(bytes(args), StandardCharsets.UTF_8);
        Integer fd = result == null ? null : parseInt(result);
        if (path.startsWith("/dev/vhost-vdpa-") && fd != null && fd >= 0) {
            fdNode.put(fd, path);
            fdStatus.put(fd, 0); // vhost_vdpa_open resets the device
            calls.computeIfAbsent(path, k -> new ArrayList<>());
        }
    }

    private void written(int pid, String args, long at) {
        int comma = args.indexOf(',');
        Integer fd = parseInt(args.substring(0, Math.max(0, comma)));
        if (fd == null) {
            return;
        }
        byte[] data = bytes(args);
        if (fd == 2) { // QEMU's trace points
            for (String ev : new String(data, StandardCharsets.UTF_8).split("\n")) {
                int at0 = ev.indexOf("vhost_vdpa_");
                if (at0 >= 0) {
                    event(pid, ev.substring(at0));
                }
            }
            return;
        }
        String node = fdNode.get(fd);
        if (node == null || data.length < IotlbCodec.MESSAGE_SIZE) {
            return;
        }
        // a long[]-backed copy: the codec reads aligned fields, a byte[] segment has alignment 1
        MemorySegment aligned = MemorySegment.ofArray(new long[(data.length + 7) / 8]);
        MemorySegment.copy(MemorySegment.ofArray(data), 0, aligned, 0, data.length);
        IotlbMessage msg = IotlbCodec.decode(aligned);
        calls.get(node).add(NodeCall.iotlb(IotlbMessageType.of(msg.type()), msg.asid(), at));
    }

    private void event(int pid, String ev) {
        String name = ev.split(" ", 2)[0];
        qemuEvents.computeIfAbsent(name, k -> new ArrayList<>()).add(ev);
        Integer awaiting = getBaseAwaitingIndex.remove(pid);
        if (awaiting != null && name.equals("vhost_vdpa_get_vring_base")) {
            Matcher i = INDEX.matcher(ev);
            String node = lastNodeOf(pid);
            if (i.find() && node != null) {
                List<NodeCall> list = calls.get(node);
                NodeCall c = list.get(awaiting);
                list.set(awaiting, NodeCall.ioctl(c.ioctl(), Integer.parseInt(i.group(1)), -1, c.atNanos()));
            }
            return;
        }
        eventsByPid.computeIfAbsent(pid, k -> new ArrayList<>()).add(ev);
    }

    private final Map<Integer, String> lastNode = new HashMap<>();

    private String lastNodeOf(int pid) {
        return lastNode.get(pid);
    }

    private void ioctl(int pid, String args, long at) {
        String[] a = args.split(",\\s*");
        Integer fd = parseInt(a[0]);
        String node = fd == null ? null : fdNode.get(fd);
        if (node == null || a.length < 2) {
            return;
        }
        VhostIoctl ioctl = VhostIoctl.byCode(Long.decode(a[1].trim()));
        if (ioctl == null) {
            return;
        }
        List<String> events = eventsByPid.getOrDefault(pid, new ArrayList<>());
        String event = events.isEmpty() ? "" : events.get(events.size() - 1);
        int vq = -1;
        int status = -1;
        switch (ioctl) {
            case SET_VRING_NUM, SET_VRING_BASE, SET_VRING_ADDR, SET_VRING_KICK, SET_VRING_CALL -> {
                String want = "vhost_vdpa_" + ioctl.kernelName().substring("VHOST_".length()).toLowerCase(Locale.ROOT);
                // QEMU 9.0+ names SET_VRING_BASE's trace point vhost_vdpa_set_dev_vring_base
                String alias = ioctl == VhostIoctl.SET_VRING_BASE ? "vhost_vdpa_set_dev_vring_base" : want;
                for (int i = events.size() - 1; i >= 0 && vq < 0; i--) {
                    if (events.get(i).startsWith(want + " ") || events.get(i).startsWith(alias + " ")) {
                        Matcher m = INDEX.matcher(events.get(i));
                        vq = m.find() ? Integer.parseInt(m.group(1)) : -1;
                    }
                }
            }
            case VDPA_SET_STATUS -> {
                // vhost_vdpa_add_status(bits): GET_STATUS, |= bits, SET_STATUS; vhost_vdpa_reset_device: 0
                int bits = 0;
                for (int i = events.size() - 1; i >= 0; i--) {
                    if (events.get(i).startsWith("vhost_vdpa_add_status ")) {
                        Matcher m = STATUS.matcher(events.get(i));
                        bits = m.find() ? Integer.parseInt(m.group(1), 16) : 0;
                        break;
                    }
                }
                status = bits == 0 ? 0 : fdStatus.getOrDefault(fd, 0) | bits;
                fdStatus.put(fd, status);
            }
            default -> {
            }
        }
        if (ioctl == VhostIoctl.GET_VRING_BASE) {
            getBaseAwaitingIndex.put(pid, calls.get(node).size());
        }
        if (ioctl != VhostIoctl.VDPA_GET_STATUS && !event.isEmpty()) {
            events.clear(); // each trace point describes one call; GET_STATUS sits inside add_status
        }
        lastNode.put(pid, node);
        calls.get(node).add(NodeCall.ioctl(ioctl, vq, status, at));
    }

    /** How often each QEMU vhost_vdpa trace point fired (for the report). */
    Map<String, List<String>> qemuEvents() {
        return qemuEvents;
    }
}
