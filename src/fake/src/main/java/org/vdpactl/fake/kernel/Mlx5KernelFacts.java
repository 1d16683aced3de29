package org.vdpactl.fake.kernel;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import org.vdpactl.abi.json.JsonReadException;
import org.vdpactl.abi.json.RecordJson;
import org.vdpactl.fake.device.DeviceProfile;
import org.vdpactl.fake.device.Mlx5VnetFacts;
import org.vdpactl.abi.MacroValues;

/**
 * What one Linux version's mlx5_vdpa driver shows userspace, as data
 * (src/fake/src/main/resources/org/vdpactl/fake/kernels/mlx5-VERSION.json; docs/spec/mlx5-kernels.md). Every
 * fact carries the source line it was read from in {@code sources}; loading refuses a fact without one.
 *
 * @param kernel                  "6.1", "6.12", "7.2"
 * @param source                  the kernel source the facts were read from
 * @param preset                  the latency-model preset of this version's driver (docs/spec/mlx5-model.md §4.3)
 * @param supportedFeatures       the management device's VDPA_ATTR_DEV_SUPPORTED_FEATURES
 * @param provisionableAttributes the management device's config_attr_mask
 * @param groups                  the virtqueue groups
 * @param addressSpaces           the address spaces
 * @param rules                   what this version's mlx5_vnet ops do differently ({@link Mlx5VnetFacts})
 * @param sources                 fact name → "file:function (version, line)"
 * @param behaviours              what a client sees of this driver, each modelled by the fake or not, with its
 *                                source line: docs/fake-kernel.md's per-kernel table ({@link Mlx5BehaviourTable})
 */
public record Mlx5KernelFacts(String kernel, String source, String preset, List<String> supportedFeatures,
                              List<String> provisionableAttributes, DeviceProfile.Groups groups, int addressSpaces,
                              Mlx5VnetFacts rules, Map<String, String> sources, List<Behaviour> behaviours) {

    /**
     * One behaviour of the driver on this kernel.
     *
     * @param name     short name, the same on every kernel that has it
     * @param modelled whether the fake does it (false: a known difference)
     * @param detail   what the driver does, as docs/fake-kernel.md says it
     * @param source   "file function (version l. N)"
     */
    public record Behaviour(String name, boolean modelled, String detail, String source) {
    }

    /** The driver model of the device profiles these facts apply to. */
    public static final String DRIVER_MODEL = "mlx5";
    private static final Map<String, Mlx5KernelFacts> LOADED = new ConcurrentHashMap<>();
    /** Components that are about the file, not facts of the driver. */
    private static final List<String> NOT_FACTS = List.of("kernel", "source", "sources", "rules", "behaviours");

    /** The facts of one kernel version's mlx5_vdpa (loaded once); empty for a version without them. */
    public static Optional<Mlx5KernelFacts> forKernel(String version) {
        if (Mlx5KernelFacts.class.getResource(resource(version)) == null) {
            return Optional.empty();
        }
        return Optional.of(LOADED.computeIfAbsent(version, Mlx5KernelFacts::load));
    }

    private static String resource(String version) {
        return "/org/vdpactl/fake/kernels/mlx5-" + version + ".json";
    }

    /** Why a management device without a named preset runs this one, for headers. */
    public String presetReason() {
        return "the " + kernel + " kernel profile's mlx5_vdpa";
    }

    /** The mlx5 device profile as this version's driver has it. */
    public DeviceProfile applyTo(DeviceProfile p) {
        DeviceProfile.Mgmt m = p.mgmtdev().withDriverFacts(supportedFeatures, provisionableAttributes, preset);
        return p.withMgmtdev(m).withDevice(p.device().withDriverFacts(groups, addressSpaces, rules));
    }

    /** The names of the facts that need a source: every component but the file's own, plus every rule. */
    static List<String> factNames() {
        List<String> names = new ArrayList<>();
        for (RecordComponent c : Mlx5KernelFacts.class.getRecordComponents()) {
            if (!NOT_FACTS.contains(c.getName())) {
                names.add(c.getName());
            }
        }
        for (RecordComponent c : Mlx5VnetFacts.class.getRecordComponents()) {
            names.add(c.getName());
        }
        return names;
    }

    private static Mlx5KernelFacts load(String version) {
        String resource = resource(version);
        try (InputStream in = Mlx5KernelFacts.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing mlx5 kernel facts " + resource);
            }
            Mlx5KernelFacts f = RecordJson.read(in.readAllBytes(), Mlx5KernelFacts.class);
            f.validate(version);
            return f;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + resource, e);
        } catch (JsonReadException e) {
            throw new IllegalStateException(resource + ": " + e.getMessage(), e);
        }
    }

    private void validate(String version) {
        if (!version.equals(kernel)) {
            throw new IllegalStateException("mlx5 facts for " + version + " say kernel " + kernel);
        }
        MacroValues.bitMask(supportedFeatures);
        provisionableAttributes.forEach(MacroValues::value);
        for (Behaviour b : behaviours) {
            if (b.name() == null || b.detail() == null || b.source() == null || b.source().isBlank()) {
                throw new IllegalStateException("mlx5 facts for " + version + ": behaviour " + b.name() + " has no source");
            }
        }
        for (String fact : factNames()) {
            String s = sources.get(fact);
            if (s == null || s.isBlank()) {
                throw new IllegalStateException("mlx5 facts for " + version + ": " + fact + " has no source");
            }
        }
    }
}
