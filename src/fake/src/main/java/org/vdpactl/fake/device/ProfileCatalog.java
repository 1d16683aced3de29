package org.vdpactl.fake.device;

import org.vdpactl.abi.MacroValues;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.vdpactl.abi.json.JsonReadException;
import org.vdpactl.abi.json.RecordJson;

/**
 * The device profiles the fake kernel knows, by name. The built-in ones are JSON resources under
 * {@code org/vdpactl/fake/profiles/}; tests may add their own.
 */
public final class ProfileCatalog {
    /** Profiles shipped with vdpactl. */
    public static final List<String> BUILT_IN = List.of("vdpasim_net", "vdpasim_blk", "mlx5");

    private final Map<String, DeviceProfile> profiles = new LinkedHashMap<>();

    private ProfileCatalog() {
    }

    /** The built-in profiles. */
    public static ProfileCatalog builtIn() {
        ProfileCatalog c = new ProfileCatalog();
        for (String name : BUILT_IN) {
            c.add(load(name));
        }
        return c;
    }

    /** Reads one built-in profile resource. */
    public static DeviceProfile load(String name) {
        String resource = "/org/vdpactl/fake/profiles/" + name + ".json";
        try (InputStream in = ProfileCatalog.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalArgumentException("no built-in device profile " + name);
            }
            return parse(in.readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + resource, e);
        }
    }

    /** Parses and checks a profile (every macro name must resolve). */
    public static DeviceProfile parse(byte[] json) {
        try {
            DeviceProfile p = RecordJson.read(json, DeviceProfile.class);
            if (p == null) {
                throw new IllegalArgumentException("invalid device profile: null");
            }
            validate(p);
            return p;
        } catch (JsonReadException e) {
            throw new IllegalArgumentException("invalid device profile: " + e.getMessage(), e);
        }
    }

    private static void validate(DeviceProfile p) {
        p.mgmtdev().supportedFeatureMask();
        p.mgmtdev().provisionableMask();
        var d = p.device();
        MacroValues.bitMask(d.features());
        if (d.ops() != null) {
            // which vdpa_config_ops a device has is its driver's declaration (VdpaSimOps, Mlx5VnetOps), on its kernel
            throw new IllegalArgumentException(p.name() + ": a device profile carries no ops: its driver declares them");
        }
        MacroValues.bitMask(d.driverFeatures().required());
        d.driverFeatures().requires().forEach((k, v) -> MacroValues.bitMask(List.of(k, v)));
        DeviceProfile.errno(d.driverFeatures().requiredErrno());
        DeviceProfile.errno(d.driverFeatures().dependencyErrno());
        DeviceProfile.errno(d.provisioning().notSubsetErrno());
        DeviceProfile.errno(d.provisioning().tooManyDevicesErrno());
        DeviceProfile.errno(d.provisioning().mustIncludeErrno());
        DeviceProfile.errno(d.provisioning().tooManyPairsErrno());
        if (!List.of("net", "blk").contains(d.config().kind())) {
            throw new IllegalArgumentException(p.name() + ": config kind must be net or blk");
        }
        if (d.datapath() != null && !("loopback".equals(d.datapath()) && "net".equals(d.config().kind()))) {
            throw new IllegalArgumentException(p.name() + ": datapath must be absent or \"loopback\" (net devices only)");
        }
        if (d.addressSpaces() < 1 || d.groups().count() < 1 || d.vqNumMax() < 1) {
            throw new IllegalArgumentException(p.name() + ": needs at least one AS, one group and a vq size");
        }
    }

    public void add(DeviceProfile profile) {
        profiles.put(profile.name(), profile);
    }

    public Optional<DeviceProfile> find(String name) {
        return Optional.ofNullable(profiles.get(name));
    }

    public DeviceProfile get(String name) {
        return find(name).orElseThrow(() -> new IllegalArgumentException(
                "unknown device profile " + name + " (known: " + profiles.keySet() + ")"));
    }

    public Map<String, DeviceProfile> all() {
        return Collections.unmodifiableMap(profiles);
    }
}
