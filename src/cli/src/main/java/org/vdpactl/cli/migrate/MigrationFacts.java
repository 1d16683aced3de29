package org.vdpactl.cli.migrate;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.util.List;
import java.util.Optional;
import org.vdpactl.report.BackendFields;

/**
 * What {@code vdpactl migrate facts} writes about one host and {@code migrate check} reads back:
 * the body of a {@code vdpactl.migrate-facts} document (its schema: migrate-facts.schema.json).
 * Feature words are hex strings ("0x..."), so that bit 63 survives JSON.
 *
 * @param host        the host's name (as the host calls itself)
 * @param backend     the kernel the facts come from (the fake's profile, or the running kernel)
 * @param kernel      release and the profile vdpactl matches it to
 * @param qemu        the QEMU found on the host (or given with --qemu-version)
 * @param memlock     RLIMIT_MEMLOCK of the process that collected the facts, bytes (-1 unlimited), or null
 * @param capIpcLock  whether that process had CAP_IPC_LOCK
 * @param devices     every vDPA device of the host
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record MigrationFacts(String host, BackendFields backend, Kernel kernel, Qemu qemu, Memlock memlock, boolean capIpcLock,
                             List<DeviceFacts> devices) {

    public MigrationFacts {
        devices = devices == null ? List.of() : List.copyOf(devices);
    }

    /** The device of this name, if the host has it. */
    public Optional<DeviceFacts> device(String name) {
        return devices.stream().filter(d -> d.name().equals(name)).findFirst();
    }

    /** @param release uname -r (null on the fake); @param profile the kernel profile ("6.12"), or null when unknown */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Kernel(String release, String profile) {
    }

    /** @param version "7.2.13", or null when none was found; @param source "probed BINARY", "given", "not found" */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Qemu(String version, String source) {
    }

    /** RLIMIT_MEMLOCK in bytes, -1 for unlimited. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Memlock(long softBytes, long hardBytes) {
    }

    /**
     * One vDPA device.
     *
     * @param name                 vdpa device name
     * @param node                 its /dev/vhost-vdpa-N, or null when it has none
     * @param type                 "net", "block", ...
     * @param mgmtdev              management device handle
     * @param driver               the vDPA driver behind it ("vdpa_sim", "mlx5_vdpa", ...), or null
     * @param firmware             firmware version where the driver exposes it, else null
     * @param pinsMemory           true when vhost-vdpa pins the VM's memory for it (PA-mode drivers: not
     *                             vdpa_sim with use_va, not VDUSE), so that RLIMIT_MEMLOCK counts
     * @param features             offered virtio features, hex
     * @param featureNames         their names
     * @param negotiatedFeatures   what the guest driver negotiated (VDPA_ATTR_DEV_NEGOTIATED_FEATURES, present
     *                             once it set FEATURES_OK), hex, or null
     * @param negotiatedFeatureNames their names, or null
     * @param status               virtio status byte (null when the node could not be opened)
     * @param mac                  config space MAC, or null
     * @param mtu                  config space MTU, or null
     * @param maxVqPairs           config space max_virtqueue_pairs, or null
     * @param backendFeatures      offered vhost backend features, hex, or null when the node is held
     * @param backendFeatureNames  their names
     * @param backendFeaturesFrom  null when read from this device; else the device of the same management
     *                             device they were read from (this one was held)
     * @param groups               virtqueue groups, or null
     * @param addressSpaces        address spaces, or null
     * @param cvq                  where the control queue lands with every offered feature (as QEMU 10.0
     *                             probes it), or null without a control queue
     * @param heldBy               processes holding the node open ("pid N (comm)"), empty when free
     * @param unavailable          what could not be read, and why
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record DeviceFacts(String name, String node, String type, String mgmtdev, String driver, String firmware,
                              boolean pinsMemory, String features, List<String> featureNames, String negotiatedFeatures,
                              List<String> negotiatedFeatureNames, Integer status, String mac, Integer mtu, Integer maxVqPairs,
                              String backendFeatures, List<String> backendFeatureNames, String backendFeaturesFrom,
                              Integer groups, Integer addressSpaces, Cvq cvq, List<String> heldBy, List<String> unavailable) {

        public DeviceFacts {
            heldBy = heldBy == null ? List.of() : List.copyOf(heldBy);
            unavailable = unavailable == null ? List.of() : List.copyOf(unavailable);
        }

        long featureBits() {
            return hex(features);
        }

        Long negotiatedBits() {
            return negotiatedFeatures == null ? null : hex(negotiatedFeatures);
        }

        Long backendBits() {
            return backendFeatures == null ? null : hex(backendFeatures);
        }

        boolean offers(String featureName) {
            return (featureBits() & QemuRules.mask(featureName)) != 0;
        }

        /** The queue pairs QEMU gives the guest: max_virtqueue_pairs with VIRTIO_NET_F_MQ offered, else 1
         * (net/vhost-vdpa.c vhost_vdpa_get_max_queue_pairs, 7.2 and 10.0). */
        int qemuQueuePairs() {
            return offers("VIRTIO_NET_F_MQ") && maxVqPairs != null ? maxVqPairs : 1;
        }

        static long hex(String s) {
            return Long.parseUnsignedLong(s.startsWith("0x") ? s.substring(2) : s, 16);
        }
    }

    /**
     * The control queue, read after FEATURES_OK with every offered feature (where mlx5 places it).
     *
     * @param index     its virtqueue index (2 × the queue pairs QEMU uses)
     * @param group     its group, or null when not readable
     * @param isolable  whether QEMU 10.0 can give it address space 1: IOTLB_ASID offered, a second address
     *                  space, no data virtqueue in its group; null when unknown
     * @param reason    why not (or why unknown); null when isolable
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Cvq(int index, Integer group, Boolean isolable, String reason) {
    }
}
