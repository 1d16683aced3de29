package org.vdpactl.fake.device;

import org.vdpactl.abi.MacroValues;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import org.vdpactl.sys.Errno;

/**
 * A device type of the fake kernel as data (src/main/resources/org/vdpactl/fake/profiles/*.json):
 * the management device it comes from and the vdpa device it creates. The fake's device and vhost
 * code read every capability and rule from here instead of branching on the device kind.
 *
 * @param name    profile name ("vdpasim_net", "vdpasim_blk", "mlx5")
 * @param mgmtdev management-device facts
 * @param device  vdpa-device facts
 */
public record DeviceProfile(String name, Mgmt mgmtdev, Device device) {

    /** This profile with another management-device part. */
    public DeviceProfile withMgmtdev(Mgmt m) {
        return new DeviceProfile(name, m, device);
    }

    /** This profile with another device part. */
    public DeviceProfile withDevice(Device d) {
        return new DeviceProfile(name, mgmtdev, d);
    }

    /**
     * @param busName                 bus ("pci") or null for bus-less mgmtdevs
     * @param devName                 default device name of the mgmtdev ("vdpasim_net"); bus mgmtdevs get theirs from the inventory
     * @param classes                 virtio device ids the mgmtdev can create (VDPA_ATTR_MGMTDEV_SUPPORTED_CLASSES bits)
     * @param maxSupportedVqs         VDPA_ATTR_DEV_MGMTDEV_MAX_VQS, or null to derive it as 2 × maxVqPairs + 1
     * @param maxVqPairs              largest provisionable max_vqp (0 when not provisionable)
     * @param supportedFeatures       VDPA_ATTR_DEV_SUPPORTED_FEATURES (macro names or hex)
     * @param provisionableAttributes VDPA_ATTR_* names DEV_NEW accepts
     * @param devicesPerMgmtdev       how many devices one mgmtdev can hold (0 = unlimited)
     * @param driverModel             "free" or "mlx5" (which {@link org.vdpactl.fake.model.DriverModel} backs the devices)
     * @param defaultPreset           the driver model preset when none is given
     */
    public record Mgmt(String busName, String devName, List<Integer> classes, Integer maxSupportedVqs, int maxVqPairs,
                       List<String> supportedFeatures, List<String> provisionableAttributes, int devicesPerMgmtdev,
                       String driverModel, String defaultPreset) {

        /** This mgmtdev with another VDPA_ATTR_DEV_SUPPORTED_FEATURES list. */
        public Mgmt withSupportedFeatures(List<String> f) {
            return new Mgmt(busName, devName, classes, maxSupportedVqs, maxVqPairs, f, provisionableAttributes,
                    devicesPerMgmtdev, driverModel, defaultPreset);
        }

        /** This mgmtdev as one kernel version's driver has it: its features, config_attr_mask and model preset. */
        public Mgmt withDriverFacts(List<String> features, List<String> provisionable, String preset) {
            return new Mgmt(busName, devName, classes, maxSupportedVqs, maxVqPairs, features, provisionable,
                    devicesPerMgmtdev, driverModel, preset);
        }

        public long supportedFeatureMask() {
            return MacroValues.bitMask(supportedFeatures);
        }

        public long classMask() {
            long m = 0;
            for (int c : classes) {
                m |= 1L << c;
            }
            return m;
        }

        public long provisionableMask() {
            long m = 0;
            for (String a : provisionableAttributes) {
                m |= 1L << MacroValues.value(a);
            }
            return m;
        }

        public int maxSupportedVqCount() {
            return maxSupportedVqs != null ? maxSupportedVqs : 2 * maxVqPairs + 1;
        }
    }

    /**
     * @param virtioId       virtio device id (1 net, 2 block)
     * @param vendorId       vendor id
     * @param features       device features when not provisioned; null = the mgmtdev's supported features
     * @param queues         virtqueue count rule
     * @param groups         virtqueue groups
     * @param addressSpaces  number of address spaces (nas)
     * @param vqNumMax       get_vq_num_max
     * @param vqNumMin       get_vq_num_min (1 when the device has none)
     * @param config         config-space rules
     * @param ops            which optional vdpa_config_ops the device has: not in the profile's JSON (null there), the
     *                       ops its driver declares ({@link #driverOps()}) on its kernel, as
     *                       {@code KernelDeviceProfiles.adapt} sets them
     * @param driverFeatures set_driver_features rules
     * @param provisioning   dev_add rules
     * @param vendorStats    vendor statistics names
     * @param iovaFirst      get_iova_range first
     * @param iovaLast       get_iova_range last
     * @param datapath       what happens to frames on the data queues: "loopback" (vdpa_sim_net: TX comes
     *                       back on RX) or null (nothing is processed; hardware would send them out)
     * @param driverFacts    the parent driver's facts for one kernel, which make its {@link VdpaConfigOps};
     *                       null = vdpa_sim ({@link VdpaSimOps}); a kernel profile supplies mlx5_vnet's
     */
    public record Device(int virtioId, int vendorId, List<String> features, Queues queues, Groups groups,
                         int addressSpaces, int vqNumMax, int vqNumMin, Config config, Ops ops,
                         DriverFeatureRules driverFeatures, ProvisioningRules provisioning, VendorStats vendorStats,
                         String iovaFirst, String iovaLast, String datapath, DriverFacts driverFacts) {

        /** The optional ops this device's driver declares: the driver its facts make (mlx5_vnet), else vdpa_sim. */
        public Ops driverOps() {
            return driverFacts != null ? driverFacts.configOps() : VdpaSimOps.CONFIG_OPS;
        }

        /** This device with other driver facts, groups and address spaces (one kernel version's driver). */
        public Device withDriverFacts(Groups g, int nas, DriverFacts r) {
            return new Device(virtioId, vendorId, features, queues, g, nas, vqNumMax, vqNumMin, config, ops,
                    driverFeatures, provisioning, vendorStats, iovaFirst, iovaLast, datapath, r);
        }

        public Device withFeatures(List<String> f) {
            return with(f, groups, config, ops, vendorStats);
        }

        public Device withGroups(Groups g) {
            return with(features, g, config, ops, vendorStats);
        }

        public Device withConfig(Config c) {
            return with(features, groups, c, ops, vendorStats);
        }

        public Device withOps(Ops o) {
            return with(features, groups, config, o, vendorStats);
        }

        /** This device with other vendor statistics (null: none). */
        public Device withVendorStats(VendorStats v) {
            return with(features, groups, config, ops, v);
        }

        /** This device with the parts a kernel version adapts replaced. */
        private Device with(List<String> f, Groups g, Config c, Ops o, VendorStats v) {
            return new Device(virtioId, vendorId, f, queues, g, addressSpaces, vqNumMax, vqNumMin, c, o,
                    driverFeatures, provisioning, v, iovaFirst, iovaLast, datapath, driverFacts);
        }
    }

    /**
     * @param fixed        a fixed number of virtqueues, or null
     * @param perPair      virtqueues per provisioned queue pair
     * @param extra        virtqueues on top of the pairs (the CVQ)
     * @param defaultPairs pairs when max_vqp is not provisioned
     * @param lastIsCvq    the last virtqueue is the control virtqueue
     */
    public record Queues(Integer fixed, int perPair, int extra, int defaultPairs, boolean lastIsCvq) {
        public int count(int pairs) {
            return fixed != null ? fixed : perPair * pairs + extra;
        }
    }

    /**
     * @param count      ngroups
     * @param data       group of data virtqueues
     * @param cvq        group of the CVQ
     * @param descData   descriptor group of data virtqueues (null: no get_vq_desc_group op)
     * @param descCvq    descriptor group of the CVQ
     */
    public record Groups(int count, int data, int cvq, Integer descData, Integer descCvq) {

        /** These groups without descriptor groups (no get_vq_desc_group op). */
        public Groups withoutDescGroups() {
            return new Groups(count, data, cvq, null, null);
        }
    }

    /**
     * @param kind          "net" or "blk" (layout of the config space)
     * @param size          get_config_size
     * @param writable      set_config is stored (vdpa_sim_net) rather than ignored/regenerated
     * @param linkUpOnRead  the net status field reads VIRTIO_NET_S_LINK_UP whatever was written
     * @param defaultMtu    MTU when none is provisioned
     * @param maxVqPairsField "zero" or "pairs": what max_virtqueue_pairs holds
     */
    public record Config(String kind, int size, boolean writable, boolean linkUpOnRead, int defaultMtu,
                         String maxVqPairsField) {

        /** This config space with another get_config_size. */
        public Config withSize(int newSize) {
            return new Config(kind, newSize, writable, linkUpOnRead, defaultMtu, maxVqPairsField);
        }
    }

    /**
     * The optional {@code struct vdpa_config_ops} members (include/linux/vdpa.h) a device's driver sets, as its
     * ops initializer declares them ({@link VdpaSimOps#CONFIG_OPS}, {@link Mlx5VnetOps#CONFIG_OPS}), less the
     * members its kernel's vdpa.h lacks ({@code KernelDeviceProfiles}). Which ops a device has is its driver's
     * business, not its profile's: a device profile's JSON carries no ops. A new op is a name here, in the drivers
     * that set it and in the kernel profiles' {@code configOps}; the generic device asks {@link #has}.
     *
     * @param configOps             the optional members the driver sets, by their vdpa.h names: "suspend",
     *                              "resume", "reset_map" (→ IOTLB_PERSIST offered), "get_vq_size", "set_map" or
     *                              "dma_map" (neither: a platform IOMMU domain), "bind_mm" (the driver asks for
     *                              use_va: IOTLB entries keep user virtual addresses, only shared file memory is
     *                              mapped), "get_vq_notification" (mmap of a doorbell page works),
     *                              "get_backend_features"
     * @param deviceBackendFeatures what the driver's get_backend_features returns (VHOST_BACKEND_F_* names)
     * @param initialMap            the device's translation before any set_map and after CLEAN_MAP/reset_map:
     *                              "identity" (vdpa_sim's pass-through: IOVA = user address) or "none" (no MR)
     */
    public record Ops(Set<String> configOps, List<String> deviceBackendFeatures, String initialMap) {

        public Ops {
            configOps = Set.copyOf(configOps);
            deviceBackendFeatures = List.copyOf(deviceBackendFeatures);
            MacroValues.bitMask(deviceBackendFeatures);
            if (!List.of("identity", "none").contains(initialMap)) {
                throw new IllegalArgumentException("initialMap must be identity or none, got " + initialMap);
            }
            if (configOps.contains("set_map") && configOps.contains("dma_map")) {
                throw new IllegalArgumentException("a driver sets set_map or dma_map, not both");
            }
        }

        /** Whether the driver sets this optional member (by its vdpa.h name). */
        public boolean has(String op) {
            return configOps.contains(op);
        }

        /** These ops without the members {@code kept} refuses (a kernel whose vdpa.h lacks them). */
        public Ops keeping(Predicate<String> kept) {
            return new Ops(configOps.stream().filter(kept).collect(Collectors.toSet()), deviceBackendFeatures, initialMap);
        }

        /** "set_map", "dma_map" or "platform" (neither op: vhost-vdpa maps through the platform IOMMU domain). */
        public String mapping() {
            return setMap() ? "set_map" : dmaMap() ? "dma_map" : "platform";
        }

        /** use_va, which only a driver with bind_mm asks for. */
        public boolean vaMode() {
            return has("bind_mm");
        }

        /** get_vq_notification: a doorbell page to mmap. */
        public boolean doorbell() {
            return has("get_vq_notification");
        }

        /** get_backend_features of the device: nothing without the op. */
        public List<String> backendFeatures() {
            return has("get_backend_features") ? deviceBackendFeatures : List.of();
        }

        public boolean identityWhenUnmapped() {
            return "identity".equals(initialMap);
        }

        public boolean setMap() {
            return has("set_map");
        }

        public boolean dmaMap() {
            return has("dma_map");
        }

        /**
         * Whether vhost-vdpa ever calls the driver op {@code op} on such a device: of the mapping ops only the one
         * the driver has (vhost_vdpa_map: set_map, else dma_map and dma_unmap, else neither, the platform IOMMU
         * maps), reset_map, suspend and resume only when the driver has them. Other ops: true.
         */
        public boolean calls(String op) {
            return switch (op) {
                case "set_map" -> setMap();
                case "dma_map", "dma_unmap" -> dmaMap();
                case "reset_map", "suspend", "resume" -> has(op);
                default -> true;
            };
        }

        /** How the device's mappings reach it, for a message: "maps with set_map". */
        public String mappingWords() {
            return switch (mapping()) {
                case "set_map" -> "maps with set_map";
                case "dma_map" -> "maps with dma_map and dma_unmap";
                default -> "is mapped by the platform IOMMU (no set_map, dma_map or dma_unmap)";
            };
        }
    }

    /**
     * @param required      bits set_driver_features insists on
     * @param requiredErrno errno when one is missing
     * @param requires      feature → the feature it needs (MQ → CTRL_VQ)
     * @param dependencyErrno errno when such a dependency is missing
     */
    public record DriverFeatureRules(List<String> required, String requiredErrno, Map<String, String> requires,
                                     String dependencyErrno) {
    }

    /**
     * @param tooManyDevicesErrno   errno of a dev_add beyond devicesPerMgmtdev
     * @param notSubsetErrno        errno when provisioned features are not supported
     * @param mustInclude           features a provisioned set must contain
     * @param mustIncludeErrno      errno when one is missing
     * @param dropWhenNotProvisioned features removed from the default set when none were provisioned
     * @param tooManyPairsErrno     errno when max_vqp exceeds the mgmtdev's maximum
     */
    public record ProvisioningRules(String tooManyDevicesErrno, String notSubsetErrno, List<String> mustInclude,
                                    String mustIncludeErrno, List<String> dropWhenNotProvisioned,
                                    String tooManyPairsErrno) {
    }

    /**
     * @param perQueue   names by queue index (queue i uses perQueue[i]); others are invalid
     * @param everyQueue names every valid queue reports
     * @param invalidQueueErrno errno for an index without stats
     */
    public record VendorStats(List<List<String>> perQueue, List<String> everyQueue, String invalidQueueErrno) {
    }

    static int errno(String name) {
        int e = Errno.valueOf(name);
        if (e <= 0) {
            throw new IllegalArgumentException("unknown errno " + name);
        }
        return e;
    }
}
