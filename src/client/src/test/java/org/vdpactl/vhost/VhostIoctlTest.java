package org.vdpactl.vhost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemoryLayout.PathElement;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
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
 * Every {@link VhostIoctl} code against (a) the constant jextract evaluated from the 6.12 uapi
 * headers and (b) the table of kernel-abi.md §2 (copied here), and every struct size and field
 * offset the vhost package uses against kernel-abi.md §2.1.
 */
class VhostIoctlTest {

    /** kernel-abi.md §2, "Code" column, verbatim. */
    static final Map<String, Long> SPEC_CODES = Map.ofEntries(
            Map.entry("VHOST_GET_FEATURES", 0x8008AF00L),
            Map.entry("VHOST_SET_FEATURES", 0x4008AF00L),
            Map.entry("VHOST_SET_OWNER", 0x0000AF01L),
            Map.entry("VHOST_RESET_OWNER", 0x0000AF02L),
            Map.entry("VHOST_SET_MEM_TABLE", 0x4008AF03L),
            Map.entry("VHOST_SET_LOG_BASE", 0x4008AF04L),
            Map.entry("VHOST_SET_LOG_FD", 0x4004AF07L),
            Map.entry("VHOST_NEW_WORKER", 0x8004AF08L),
            Map.entry("VHOST_FREE_WORKER", 0x4004AF09L),
            Map.entry("VHOST_SET_VRING_NUM", 0x4008AF10L),
            Map.entry("VHOST_SET_VRING_ADDR", 0x4028AF11L),
            Map.entry("VHOST_SET_VRING_BASE", 0x4008AF12L),
            Map.entry("VHOST_GET_VRING_BASE", 0xC008AF12L),
            Map.entry("VHOST_SET_VRING_ENDIAN", 0x4008AF13L),
            Map.entry("VHOST_GET_VRING_ENDIAN", 0x4008AF14L),
            Map.entry("VHOST_ATTACH_VRING_WORKER", 0x4008AF15L),
            Map.entry("VHOST_GET_VRING_WORKER", 0xC008AF16L),
            Map.entry("VHOST_SET_VRING_KICK", 0x4008AF20L),
            Map.entry("VHOST_SET_VRING_CALL", 0x4008AF21L),
            Map.entry("VHOST_SET_VRING_ERR", 0x4008AF22L),
            Map.entry("VHOST_SET_VRING_BUSYLOOP_TIMEOUT", 0x4008AF23L),
            Map.entry("VHOST_GET_VRING_BUSYLOOP_TIMEOUT", 0x4008AF24L),
            Map.entry("VHOST_SET_BACKEND_FEATURES", 0x4008AF25L),
            Map.entry("VHOST_GET_BACKEND_FEATURES", 0x8008AF26L),
            Map.entry("VHOST_VDPA_GET_DEVICE_ID", 0x8004AF70L),
            Map.entry("VHOST_VDPA_GET_STATUS", 0x8001AF71L),
            Map.entry("VHOST_VDPA_SET_STATUS", 0x4001AF72L),
            Map.entry("VHOST_VDPA_GET_CONFIG", 0x8008AF73L),
            Map.entry("VHOST_VDPA_SET_CONFIG", 0x4008AF74L),
            Map.entry("VHOST_VDPA_SET_VRING_ENABLE", 0x4008AF75L),
            Map.entry("VHOST_VDPA_GET_VRING_NUM", 0x8002AF76L),
            Map.entry("VHOST_VDPA_SET_CONFIG_CALL", 0x4004AF77L),
            Map.entry("VHOST_VDPA_GET_IOVA_RANGE", 0x8010AF78L),
            Map.entry("VHOST_VDPA_GET_CONFIG_SIZE", 0x8004AF79L),
            Map.entry("VHOST_VDPA_GET_AS_NUM", 0x8004AF7AL),
            Map.entry("VHOST_VDPA_GET_VRING_GROUP", 0xC008AF7BL),
            Map.entry("VHOST_VDPA_SET_GROUP_ASID", 0x4008AF7CL),
            Map.entry("VHOST_VDPA_SUSPEND", 0x0000AF7DL),
            Map.entry("VHOST_VDPA_RESUME", 0x0000AF7EL),
            Map.entry("VHOST_VDPA_GET_VRING_DESC_GROUP", 0xC008AF7FL),
            Map.entry("VHOST_VDPA_GET_VQS_COUNT", 0x8004AF80L),
            Map.entry("VHOST_VDPA_GET_GROUP_NUM", 0x8004AF81L),
            Map.entry("VHOST_VDPA_GET_VRING_SIZE", 0xC008AF82L),
            Map.entry("VHOST_GET_FEATURES_ARRAY", 0x8008AF83L),
            Map.entry("VHOST_SET_FEATURES_ARRAY", 0x4008AF83L),
            Map.entry("VHOST_SET_FORK_FROM_OWNER", 0x4001AF84L),
            Map.entry("VHOST_GET_FORK_FROM_OWNER", 0x8001AF85L));

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

    @Test
    void theSeamNamesVhostCommandsOnlyWhenGivenTheVhostTable() {
        assertEquals("ioctl VHOST_VDPA_SUSPEND", VhostIoctl.names().name(VhostIoctl.VDPA_SUSPEND.code()));
        assertEquals("ioctl VHOST_VDPA_GET_IOVA_RANGE", VhostIoctl.names().name(VhostIoctl.VDPA_GET_IOVA_RANGE.code()));
        assertEquals("ioctl 0x0000AFEE", VhostIoctl.names().name(0xAFEE));
        // VhostIoctl is loaded by now: a seam built without its table still numbers the command
        assertEquals("ioctl 0x0000AF7D", org.vdpactl.sys.IoctlNames.NUMERIC.name(VhostIoctl.VDPA_SUSPEND.code()));
        assertEquals("ioctl 0x0000AF7D", org.vdpactl.sys.IoctlNames.describe(VhostIoctl.VDPA_SUSPEND.code()));
    }
}
