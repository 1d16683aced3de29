package org.vdpactl.abi;

import java.util.List;
import java.util.Map;
import java.util.Optional;


/**
 * What one Linux version's vhost-vdpa and vdpa netlink code offers, as data
 * (src/abi/src/main/resources/org/vdpactl/abi/kernels/VERSION.json; every fact and its kernel source is
 * listed in docs/kernel-profiles.md). The fake kernel dispatches on it: an ioctl the version lacks takes
 * the kernel's unknown-ioctl path, a netlink command it lacks gets EOPNOTSUPP from genetlink, an attribute
 * above its maxattr gets the strict policy's EINVAL. The client reads the same facts to explain what a
 * running kernel of that release lacks ({@code vdpactl doctor}); neither keeps a table of its own.
 *
 * @param version  "6.1", "6.12", "7.2"
 * @param aliases  other names accepted by {@code --fake-kernel} ("newest", "lts", ...)
 * @param source   the kernel source the facts were read from
 * @param vhost    drivers/vhost/vdpa.c and vhost.c facts
 * @param configOps the optional {@code struct vdpa_config_ops} members (include/linux/vdpa.h) that
 *                  this version has; a device op outside this list cannot exist on it
 * @param netlink  drivers/vdpa/vdpa.c netlink facts
 * @param drivers  per-management-device differences of the in-tree simulator drivers
 * @param vduseClasses the virtio ids in the id table of the built-in "vduse" mgmtdev
 *                     (drivers/vdpa/vdpa_user/vduse_dev.c: block only on 6.1, net and block later)
 */
public record KernelProfile(String version, List<String> aliases, String source, Vhost vhost, List<String> configOps,
                            Netlink netlink, Map<String, DriverDelta> drivers, List<String> vduseClasses) {

    /**
     * @param ioctls                  the ioctls vhost_vdpa_unlocked_ioctl / vhost_dev_ioctl / vhost_vring_ioctl handle
     * @param backendFeaturesOffered  VHOST_VDPA_BACKEND_FEATURES: offered whatever the device
     * @param backendFeaturesAccepted the mask SET_BACKEND_FEATURES accepts (anything else: EOPNOTSUPP)
     * @param suspendNeedsDriverOk    SUSPEND/RESUME return 0 without calling the driver before DRIVER_OK
     * @param vringNumChecksMax       SET_VRING_NUM also rejects num &gt; get_vq_num_max (vhost-vdpa's own handler)
     * @param ringChangeNeedsStop     SET_VRING_ADDR/BASE are EINVAL while DRIVER_OK and not suspended
     * @param groupAsidChecksGroup    SET_GROUP_ASID itself refuses a group &gt;= GET_GROUP_NUM (EINVAL); without
     *                                the check (6.1) only the driver's own check applies
     * @param groupAsidBusyAfterDriverOk SET_GROUP_ASID is EBUSY after DRIVER_OK
     * @param iotlbEntryLimit       entries an address space's IOTLB holds before UPDATE fails (ENOSPC, EFAULT to
     *                                userspace); 0: no limit (6.1.176's vhost_vdpa_alloc_as calls
     *                                {@code vhost_iotlb_init(&as->iotlb, 0, 0)}; measured in the 6.1 lane)
     * @param pinnedRuns            how a pinned (PA-mode) UPDATE is cut into IOTLB entries; null: one entry per UPDATE
     */
    public record Vhost(List<UapiIoctl> ioctls, List<String> backendFeaturesOffered, List<String> backendFeaturesAccepted,
                        boolean suspendNeedsDriverOk, boolean vringNumChecksMax, boolean ringChangeNeedsStop,
                        boolean groupAsidChecksGroup, boolean groupAsidBusyAfterDriverOk, int iotlbEntryLimit,
                        PinnedRuns pinnedRuns) {
        public Vhost {
            pinnedRuns = pinnedRuns == null ? PinnedRuns.ONE_PER_UPDATE : pinnedRuns;
        }
    }

    /**
     * vhost_vdpa_pa_map makes one IOTLB entry per physically contiguous run of the pages it pinned, and an
     * INVALIDATE removes every whole entry it touches (vhost_vdpa_pa_unmap). Where the runs end is the page
     * allocator's doing, so this is the fake's model of the common placement, written next to its source.
     *
     * @param scatteredUpToPages a pinned range of at most this many pages is taken as scattered, one entry per
     *                           page (the pages come from the per-CPU free lists, the most recently freed first);
     *                           a larger one as one run; 0: every range is one run (one entry per UPDATE)
     * @param source             the kernel lines the rule and the model rest on
     */
    public record PinnedRuns(int scatteredUpToPages, String source) {
        /** No splitting: the model of the profiles whose only PA-mode device is mlx5 (see the JSON's source). */
        public static final PinnedRuns ONE_PER_UPDATE = new PinnedRuns(0, "");

        /** The pages in each IOTLB entry a pinned range of {@code npages} pages becomes: 1 (scattered) or all of them. */
        public long pagesPerEntry(long npages) {
            return scatteredUpToPages > 0 && npages <= scatteredUpToPages ? 1 : npages;
        }
    }

    /**
     * @param commands                 the vdpa family's genl ops
     * @param maxAttr                  the family's maxattr (VDPA_ATTR_MAX)
     * @param legacyDeviceFeaturesAttr config replies carry the device features as attribute 21
     *                                 (VDPA_ATTR_VDPA_DEV_SUPPORTED_FEATURES) and the net status
     *                                 unconditionally, as before the 6.2 renumbering
     * @param devNewChecksFeatureBits  DEV_NEW refuses DEV_FEATURES lacking the bits of the given MAC/MTU/max_vqp
     *                                 ("Missing features 0x…") before it looks the management device up
     * @param devNewChecksClasses      DEV_NEW refuses net attributes on a non-net management device and ambiguous
     *                                 features on a multi-class one (after the attribute-mask check)
     * @param unsupportedAttributesExtack the extack (without "vdpa: ") of DEV_NEW with attributes outside the
     *                                 management device's mask; "%x" stands for the unsupported mask
     * @param queueIndexExtack         the extack (without "vdpa: ") of DEV_VSTATS_GET with a queue index above
     *                                 0x7fff, byte for byte (6.1's has the kernel's typo)
     * @param requestPolicy            the attributes vdpa_nl_policy has an entry for, by name (the entry itself,
     *                                 type and bounds, is {@link UapiVdpaAttribute#requestPolicy()}); every vdpa
     *                                 command validates with it, and nlctrl's CTRL_CMD_GETPOLICY reports it
     */
    public record Netlink(List<UapiVdpaCommand> commands, int maxAttr, boolean legacyDeviceFeaturesAttr,
                          boolean devNewChecksFeatureBits, boolean devNewChecksClasses,
                          String unsupportedAttributesExtack, String queueIndexExtack,
                          List<UapiVdpaAttribute> requestPolicy) {
        public Netlink {
            requestPolicy = requestPolicy == null ? List.of() : List.copyOf(requestPolicy);
        }

        /** The extack text for attributes outside a management device's mask, as this version words it. */
        public String unsupportedAttributesText(long unsupportedMask) {
            return "vdpa: " + unsupportedAttributesExtack.replace("%x", Long.toHexString(unsupportedMask));
        }

        /** The extack text for a vendor-statistics queue index above the maximum. */
        public String queueIndexText() {
            return "vdpa: " + queueIndexExtack;
        }
    }

    /**
     * @param removeFeatures virtio features the driver of this version does not offer
     * @param vendorStats    whether the driver has get_vendor_vq_stats
     * @param groupAsidAcceptsGroupCount the driver's set_group_asid checks {@code group > ngroups} (6.1's
     *                       vdpa_sim: off by one), so group == GET_GROUP_NUM returns 0 and binds no vq;
     *                       matters only where vhost-vdpa does not check the group itself
     * @param configSize     the driver's config space size when it differs from the device profile's
     *                       (6.1's struct virtio_blk_config has no zoned fields: 72 bytes, not 96), or null
     */
    public record DriverDelta(List<String> removeFeatures, boolean vendorStats, boolean groupAsidAcceptsGroupCount,
                              Integer configSize) {
    }

    /** True when this version handles the ioctl. */
    public boolean hasIoctl(UapiIoctl ioctl) {
        return vhost.ioctls().contains(ioctl);
    }

    /** True when this version's vdpa family has the command. */
    public boolean hasCommand(UapiVdpaCommand command) {
        return netlink.commands().contains(command);
    }

    /** True when {@code struct vdpa_config_ops} of this version has the optional member. */
    public boolean hasConfigOp(String op) {
        return configOps.contains(op);
    }

    /** VDPA_ATTR_MGMTDEV_SUPPORTED_CLASSES of the vduse mgmtdev on this version (bit n = virtio id n). */
    public long vduseClassMask() {
        return MacroValues.bitMask(vduseClasses);
    }

    /** The SET_BACKEND_FEATURES mask. */
    public long acceptedBackendFeatures() {
        return MacroValues.bitMask(vhost.backendFeaturesAccepted());
    }

    /** The bits GET_BACKEND_FEATURES always offers. */
    public long offeredBackendFeatures() {
        return MacroValues.bitMask(vhost.backendFeaturesOffered());
    }

    /** True when a name (version or alias) designates this profile. */
    public boolean answersTo(String name) {
        return version.equals(name) || aliases.contains(name);
    }

    /** The driver delta for a management-device profile name, if this version has one. */
    public Optional<DriverDelta> driver(String profileName) {
        return Optional.ofNullable(drivers.get(profileName));
    }

    /** A simulator driver's virtio features on this version, given the ones of the profiles without a delta. */
    public long driverFeatures(String profileName, long currentFeatures) {
        return driver(profileName).map(d -> currentFeatures & ~MacroValues.bitMask(d.removeFeatures())).orElse(currentFeatures);
    }

    /** A simulator driver's config space size on this version, given the one of the profiles without a delta. */
    public int driverConfigSize(String profileName, int currentSize) {
        return driver(profileName).map(DriverDelta::configSize).orElse(currentSize);
    }

    /** True when a set_group_asid of the driver behind this management-device profile accepts group == ngroups. */
    public boolean groupAsidAcceptsGroupCount(String profileName) {
        return driver(profileName).map(DriverDelta::groupAsidAcceptsGroupCount).orElse(false);
    }

    @Override
    public String toString() {
        return "Linux " + version;
    }
}
