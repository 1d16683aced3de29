package org.vdpactl.lane.qemu;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * StraceCalls on a hand-written log in strace's format: the node's fd from openat, ioctls named by
 * number, QEMU's trace points (write(2, ...)) giving the vq index and the status bits, an IOTLB
 * message decoded from its bytes, an ioctl split by another thread ("unfinished"/"resumed"), and
 * calls on other fds ignored.
 */
class StraceCallsTest {
    @TempDir
    Path dir;

    private static String hex(String s) {
        return hex(s.getBytes(StandardCharsets.UTF_8));
    }

    private static String hex(byte[] b) {
        StringBuilder out = new StringBuilder();
        for (byte x : b) {
            out.append("\\x").append(HexFormat.of().toHexDigits(x));
        }
        return out.toString();
    }

    @Test
    void readsTheNodesCallsWithTheArgumentsQemusTracePointsGive() throws Exception {
        byte[] update = new byte[72];
        update[0] = 2; // VHOST_IOTLB_MSG_V2
        update[4] = 1; // asid 1
        update[8 + 24 + 1] = 2; // iotlb.type = UPDATE (after iova, size, uaddr, perm)
        List<String> log = List.of(
                "100 07:00:00.000001 openat(AT_FDCWD, \"" + hex("/dev/vhost-vdpa-3") + "\", O_RDWR) = 12",
                "100 07:00:00.000002 write(2, \"" + hex("vhost_vdpa_set_vring_num dev: 0x1 index: 2 num: 16\n") + "\", 50) = 50",
                "100 07:00:00.000003 ioctl(12, 0x4008af10, 0x7ffd0000) = 0",
                "100 07:00:00.000004 write(2, \"" + hex("vhost_vdpa_add_status dev: 0x1 status: 0x3\n") + "\", 44) = 44",
                "100 07:00:00.000005 ioctl(12, 0x8001af71, 0x7ffd0000) = 0",
                "100 07:00:00.000006 ioctl(12, 0x4001af72, 0x7ffd0000 <unfinished ...>",
                "101 07:00:00.000007 ioctl(13, 0x4001af72, 0x7ffd0000) = 0",
                "100 07:00:00.000008 <... ioctl resumed>) = 0",
                "100 07:00:00.000009 write(12, \"" + hex(update) + "\", 72) = 72",
                "100 07:00:00.000010 ioctl(12, 0xc008af12, 0x7ffd0000) = 0",
                "100 07:00:00.000011 write(2, \"" + hex("vhost_vdpa_get_vring_base dev: 0x1 index: 1 num: 0\n") + "\", 51) = 51",
                "100 07:00:00.000012 ioctl(12, 0x4001af72, 0x7ffd0000) = 0");
        Path file = dir.resolve("q.strace");
        Files.write(file, log);
        List<String> tokens = StraceCalls.parse(file).calls("/dev/vhost-vdpa-3").stream().map(NodeCall::token).toList();
        assertEquals(List.of("VHOST_SET_VRING_NUM vq2", "VHOST_VDPA_GET_STATUS", "VHOST_VDPA_SET_STATUS 0x3",
                "IOTLB UPDATE asid1", "VHOST_GET_VRING_BASE vq1", "VHOST_VDPA_SET_STATUS 0x0"), tokens);
    }
}
