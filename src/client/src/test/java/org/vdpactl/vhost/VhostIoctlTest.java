package org.vdpactl.vhost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemoryLayout.PathElement;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.MatchResult;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.vdpactl.ffi.gen.vhost.vhost_h;
import org.vdpactl.ffi.gen.vhost.vhost_iotlb_msg;
import org.vdpactl.ffi.gen.vhost.vhost_memory;
import org.vdpactl.ffi.gen.vhost.vhost_memory_region;
import org.vdpactl.ffi.gen.vhost.vhost_msg;
import org.vdpactl.ffi.gen.vhost.vhost_msg_v2;
import org.vdpactl.ffi.gen.vhost.vhost_vdpa_config;
import org.vdpactl.ffi.gen.vhost.vhost_vdpa_iova_range;
import org.vdpactl.ffi.gen.vhost.vhost_vring_addr;
import org.vdpactl.ffi.gen.vhost.vhost_vring_file;
import org.vdpactl.ffi.gen.vhost.vhost_vring_state;
import org.vdpactl.ffi.gen.vhost.vhost_vring_worker;
import org.vdpactl.ffi.gen.vhost.vhost_worker_state;
import org.vdpactl.ffi.gen.vhost.vhost_features_array;
import org.vdpactl.ffi.gen.vhost.virtio_blk_config;
import org.vdpactl.ffi.gen.vhost.virtio_net_config;

/**
 * Every {@link VhostIoctl} code (the ABI's, which jextract evaluated from the 6.12 uapi headers) against
 * (a) {@code _IOC(dir, 0xAF, nr, sizeof(arg))} derived here by hand from the generated layouts, the oracle
 * that a layout or header change shows up against, (b) the constant jextract evaluated and (c) the table of
 * docs/spec/kernel-abi.md §2, read from the document; and every struct size and field offset the vhost
 * package uses against kernel-abi.md §2.1.
 */
class VhostIoctlTest {

    /** kernel-abi.md §2, "Name" and "Code" columns, read from the document (the tests run in the checkout). */
    static final Map<String, Long> SPEC_CODES = specCodes(Path.of("docs", "spec", "kernel-abi.md"));

    /**
     * The _IOC derivation by hand, from the same table's "dir", "nr" and "size" columns (what a person reads in
     * the header's {@code _IOR(VHOST_VIRTIO, 0x7D, ...)}), so that adding an ioctl's row is its oracle entry too.
     */
    static final Map<String, Long> HAND_DERIVED = specDerivations(Path.of("docs", "spec", "kernel-abi.md"));

    /** kernel-abi.md §2's rows as {@code _IOC(dir, 0xAF, nr, size)} of their dir ("R", "W", "RW", "–"), nr and size columns. */
    static Map<String, Long> specDerivations(Path doc) {
        Map<String, Long> derived = new TreeMap<>();
        for (MatchResult m : catalogue(doc, "^\\| (VHOST_[A-Z0-9_]+) \\| (R|W|W\\(!\\)|RW|–) \\| 0x([0-9A-F]{2}) \\| (\\d+) \\|.*")) {
            int dir = switch (m.group(2)) {
                case "R" -> Ioc.READ;
                case "W", "W(!)" -> Ioc.WRITE; // (!): a GET that the header declares _IOW
                case "RW" -> Ioc.READ | Ioc.WRITE;
                default -> Ioc.NONE;
            };
            derived.put(m.group(1), Ioc.ioc(dir, 0xAF, Integer.parseInt(m.group(3), 16), Long.parseLong(m.group(4))));
        }
        return derived;
    }

    static Map<String, Long> specCodes(Path doc) {
        Map<String, Long> codes = new TreeMap<>();
        for (MatchResult m : catalogue(doc, "^\\| (VHOST_[A-Z0-9_]+) \\|[^|]*\\|[^|]*\\|[^|]*\\| `0x([0-9A-F]{8})` \\|.*")) {
            codes.put(m.group(1), Long.parseLong(m.group(2), 16));
        }
        return codes;
    }

    /** The lines of kernel-abi.md's §2 (the ioctl catalogue) that match {@code row}. */
    static List<MatchResult> catalogue(Path doc, String row) {
        Pattern p = Pattern.compile(row);
        List<MatchResult> rows = new ArrayList<>();
        boolean inCatalogue = false;
        try {
            for (String line : Files.readAllLines(doc)) {
                if (line.startsWith("## ")) {
                    inCatalogue = line.startsWith("## 2. Ioctl catalogue");
                }
                Matcher m = p.matcher(line);
                if (inCatalogue && m.matches()) {
                    rows.add(m.toMatchResult());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return rows;
    }

    @Test
    void theSpecTableIsRead() {
        assertEquals(0x0000AF7DL, SPEC_CODES.get("VHOST_VDPA_SUSPEND"));
        assertEquals(0xC008AF82L, SPEC_CODES.get("VHOST_VDPA_GET_VRING_SIZE"));
        assertEquals(VhostIoctl.values().length, SPEC_CODES.size(), SPEC_CODES.keySet()::toString);
        assertEquals(SPEC_CODES.keySet(), HAND_DERIVED.keySet(), "every row's dir, nr and size columns are read");
        assertEquals(Ioc.ioc(Ioc.READ | Ioc.WRITE, 0xAF, 0x82, 8), HAND_DERIVED.get("VHOST_VDPA_GET_VRING_SIZE"));
        assertEquals(Ioc.ioc(Ioc.NONE, 0xAF, 0x7D, 0), HAND_DERIVED.get("VHOST_VDPA_SUSPEND"));
    }

    @ParameterizedTest
    @EnumSource(VhostIoctl.class)
    void codeMatchesTheHandDerivation(VhostIoctl ioctl) {
        Long hand = HAND_DERIVED.get(ioctl.kernelName());
        assertNotNull(hand, ioctl + " has no hand derivation");
        assertEquals(hand, ioctl.code(), () -> String.format("%s: 0x%08X != _IOC 0x%08X", ioctl, ioctl.code(), hand));
    }

    @ParameterizedTest
    @EnumSource(VhostIoctl.class)
    void codeMatchesTheSpecTable(VhostIoctl ioctl) {
        Long spec = SPEC_CODES.get(ioctl.kernelName());
        assertNotNull(spec, ioctl.kernelName() + " is not in the spec table");
        assertEquals(spec, ioctl.code(), () -> String.format("%s: 0x%08X != spec 0x%08X", ioctl, ioctl.code(), spec));
    }

    @ParameterizedTest
    @EnumSource(VhostIoctl.class)
    void codeMatchesTheJextractConstant(VhostIoctl ioctl) throws Throwable {
        // lookup(), not publicLookup(): abi exports the generated package to the client module only
        // the generated accessor is `long` for sized codes and `int` for _IO codes
        Object v;
        try {
            v = MethodHandles.lookup().findStatic(vhost_h.class, ioctl.kernelName(), MethodType.methodType(long.class)).invoke();
        } catch (NoSuchMethodException e) {
            v = MethodHandles.lookup().findStatic(vhost_h.class, ioctl.kernelName(), MethodType.methodType(int.class)).invoke();
        }
        long generated = ((Number) v).longValue() & 0xFFFF_FFFFL;
        assertEquals(generated, ioctl.code(), ioctl.kernelName());
    }

    @Test
    void spotChecksAgainstTheGeneratedHeaderClass() {
        assertEquals(vhost_h.VHOST_GET_FEATURES(), VhostIoctl.GET_FEATURES.code());
        assertEquals(vhost_h.VHOST_VDPA_GET_VRING_SIZE(), VhostIoctl.VDPA_GET_VRING_SIZE.code());
        assertEquals(vhost_h.VHOST_GET_VRING_BASE(), VhostIoctl.GET_VRING_BASE.code());
        assertEquals(vhost_h.VHOST_VDPA_SUSPEND(), VhostIoctl.VDPA_SUSPEND.code());
        assertEquals(vhost_h.VHOST_VIRTIO(), VhostIoctl.VHOST_VIRTIO);
    }

    @Test
    void everyCodeIsDistinctAndEveryTableRowIsCovered() {
        Set<Long> codes = new HashSet<>();
        for (VhostIoctl v : VhostIoctl.values()) {
            assertTrue(codes.add(v.code()), "duplicate code " + v);
            assertEquals(v, VhostIoctl.byCode(v.code()));
            assertEquals(v, VhostIoctl.byCode(v.code() | 0xFFFF_FFFF_0000_0000L), "sign-extended lookup");
        }
        Set<String> names = new HashSet<>();
        for (VhostIoctl v : VhostIoctl.values()) {
            names.add(v.kernelName());
        }
        assertEquals(SPEC_CODES.keySet(), names);
    }

    @Test
    void decodingTheFieldsGivesBackTheSpecColumns() {
        // dir/nr/size of a few rows with the quirks the spec calls out
        assertEquals(Ioc.WRITE, Ioc.dir(VhostIoctl.GET_VRING_ENDIAN.code()), "GET_VRING_ENDIAN is _IOW");
        assertEquals(Ioc.WRITE, Ioc.dir(VhostIoctl.GET_VRING_BUSYLOOP_TIMEOUT.code()));
        assertEquals(4, Ioc.size(VhostIoctl.VDPA_GET_DEVICE_ID.code()));
        assertEquals(4, Ioc.size(VhostIoctl.VDPA_GET_AS_NUM.code()));
        assertEquals(0x12, Ioc.nr(VhostIoctl.SET_VRING_BASE.code()));
        assertEquals(0x12, Ioc.nr(VhostIoctl.GET_VRING_BASE.code()));
        assertEquals(0xAF, Ioc.type(VhostIoctl.VDPA_GET_VRING_SIZE.code()));
        assertEquals("ioctl 0x0000AFEE", VhostIoctl.describe(0xAFEE));
        assertEquals("VHOST_VDPA_RESUME", VhostIoctl.describe(0xAF7E));
    }

    // ---------------------------------------------------------------- §2.1 struct layouts

    static Stream<Object[]> specLayouts() {
        return Stream.of(
                // struct, size, {field, offset, size}...
                row(vhost_vring_state.layout(), 8, "index", 0, 4, "num", 4, 4),
                row(vhost_vring_file.layout(), 8, "index", 0, 4, "fd", 4, 4),
                row(vhost_vring_addr.layout(), 40, "index", 0, 4, "flags", 4, 4, "desc_user_addr", 8, 8,
                        "used_user_addr", 16, 8, "avail_user_addr", 24, 8, "log_guest_addr", 32, 8),
                row(vhost_vdpa_config.layout(), 8, "off", 0, 4, "len", 4, 4, "buf", 8, 0),
                row(vhost_vdpa_iova_range.layout(), 16, "first", 0, 8, "last", 8, 8),
                row(vhost_iotlb_msg.layout(), 32, "iova", 0, 8, "size", 8, 8, "uaddr", 16, 8, "perm", 24, 1, "type", 25, 1),
                row(vhost_msg.layout(), 72, "type", 0, 4),
                row(vhost_msg_v2.layout(), 72, "type", 0, 4, "asid", 4, 4),
                row(vhost_memory.layout(), 8, "nregions", 0, 4, "padding", 4, 4),
                row(vhost_memory_region.layout(), 32, "guest_phys_addr", 0, 8, "memory_size", 8, 8, "userspace_addr", 16, 8,
                        "flags_padding", 24, 8),
                row(vhost_worker_state.layout(), 4, "worker_id", 0, 4),
                row(vhost_vring_worker.layout(), 8, "index", 0, 4, "worker_id", 4, 4),
                row(vhost_features_array.layout(), 8, "count", 0, 8),
                row(virtio_net_config.layout(), 24, "mac", 0, 6, "status", 6, 2, "max_virtqueue_pairs", 8, 2, "mtu", 10, 2,
                        "speed", 12, 4, "duplex", 16, 1, "rss_max_key_size", 17, 1, "rss_max_indirection_table_length", 18, 2,
                        "supported_hash_types", 20, 4));
    }

    private static Object[] row(MemoryLayout layout, long size, Object... fields) {
        return new Object[] {layout.name().orElseThrow(), layout, size, fields};
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("specLayouts")
    void structLayoutMatchesSpec(String name, MemoryLayout layout, long size, Object[] fields) {
        assertEquals(size, layout.byteSize(), name + " size");
        for (int i = 0; i < fields.length; i += 3) {
            String field = (String) fields[i];
            assertEquals(((Integer) fields[i + 1]).longValue(), layout.byteOffset(PathElement.groupElement(field)), name + "." + field);
            assertEquals(((Integer) fields[i + 2]).longValue(), layout.select(PathElement.groupElement(field)).byteSize(),
                    name + "." + field + " size");
        }
    }

    /**
     * The size column of a row whose argument is a struct (its "Arg type" column names it) is that struct's generated
     * layout size: the hand derivation's sizes are the headers' {@code sizeof}, not typed ones.
     */
    @Test
    void structArgumentSizesInTheSpecTableAreTheGeneratedLayouts() {
        Map<String, Long> layouts = new TreeMap<>();
        specLayouts().forEach(r -> layouts.put((String) r[0], ((MemoryLayout) r[1]).byteSize()));
        int structs = 0;
        for (MatchResult m : catalogue(Path.of("docs", "spec", "kernel-abi.md"),
                "^\\| (VHOST_[A-Z0-9_]+) \\|[^|]*\\|[^|]*\\| (\\d+) \\|[^|]*\\| (?:struct )?(vhost_[a-z0-9_]+)\\b.*")) {
            if (layouts.containsKey(m.group(3))) {
                structs++;
                assertEquals(layouts.get(m.group(3)), Long.parseLong(m.group(2)), m.group(1) + ": sizeof(" + m.group(3) + ")");
            }
        }
        assertTrue(structs >= 15, "rows with a struct argument: " + structs);
    }

    @Test
    void iotlbBodyOffsetsOfBothMessageVersions() {
        assertEquals(8, vhost_msg.iotlb$offset());
        assertEquals(8, vhost_msg_v2.iotlb$offset());
        assertEquals(72, IotlbCodec.MESSAGE_SIZE);
    }

    @Test
    void blkConfigIs96BytesAsVdpaSimReports() {
        // verified-device.md: vdpasim_blk GET_CONFIG_SIZE = 96 = sizeof(struct virtio_blk_config) in 6.12
        assertEquals(96, virtio_blk_config.layout().byteSize());
        assertEquals(0, virtio_blk_config.capacity$offset());
        assertEquals(16, virtio_blk_config.geometry$offset());
        assertEquals(20, virtio_blk_config.blk_size$offset());
        assertEquals(34, virtio_blk_config.num_queues$offset());
    }

    @Test
    void argSizesEncodedInTheCodesAreTheStructSizes() {
        for (VhostIoctl v : EnumSet.allOf(VhostIoctl.class)) {
            assertEquals(v.argSize(), Ioc.size(v.code()), v.kernelName());
        }
        assertEquals(vhost_vring_state.layout().byteSize(), VhostIoctl.SET_VRING_NUM.argSize());
        assertEquals(vhost_vring_addr.layout().byteSize(), VhostIoctl.SET_VRING_ADDR.argSize());
        assertNull(VhostIoctl.byCode(0xDEADBEEFL));
    }
}
