package org.vdpactl.abi;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;


/**
 * The kernel versions the fake can speak, oldest first: Debian 12's 6.1, the 6.12 LTS (the
 * default, what the fake always was) and the newest kernel Debian unstable ships (7.2).
 */
public final class KernelProfiles {
    /** The versions, oldest first. */
    public static final List<String> VERSIONS = List.of("6.1", "6.12", "7.2");
    /** The default profile's version. */
    public static final String DEFAULT_VERSION = "6.12";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern RELEASE = Pattern.compile("^(\\d+)\\.(\\d+)");
    /** The merged trees read so far, by version: only while {@link #ALL} is loaded, on the class's initialising thread. */
    private static final Map<String, ObjectNode> TREES = new HashMap<>();
    /** Each delta profile's parent version, by version. */
    private static final Map<String, String> PARENTS = new HashMap<>();
    private static final List<KernelProfile> ALL = VERSIONS.stream().map(KernelProfiles::load).toList();

    static {
        TREES.clear();
    }

    private KernelProfiles() {
    }

    /** Every profile, oldest first. */
    public static List<KernelProfile> all() {
        return ALL;
    }

    /** The version a profile is a delta over ({@code "parent"} in its file), if any. */
    public static Optional<String> parentOf(String version) {
        return Optional.ofNullable(PARENTS.get(version));
    }

    /** The default profile (6.12). */
    public static KernelProfile defaultProfile() {
        return byName(DEFAULT_VERSION).orElseThrow();
    }

    /** The newest profile. */
    public static KernelProfile newest() {
        return ALL.getLast();
    }

    /** A profile by version or alias ("6.1", "newest", "lts"). */
    public static Optional<KernelProfile> byName(String name) {
        return ALL.stream().filter(p -> p.answersTo(name)).findFirst();
    }

    /** The names {@code --fake-kernel} accepts, for messages: "6.1|6.12|7.2 (aliases ...)". */
    public static String accepted() {
        StringBuilder b = new StringBuilder(String.join("|", VERSIONS));
        b.append(" (or ");
        b.append(String.join(", ", ALL.stream().flatMap(p -> p.aliases().stream()).toList()));
        return b.append(')').toString();
    }

    /**
     * The profile whose facts a running kernel of this release ({@code uname -r}) is expected to
     * match: the newest profiled version not newer than it (6.8 → 6.1's profile is only a lower
     * bound), or the oldest profile for older releases; empty when the release is not parseable.
     */
    public static Optional<KernelProfile> forRelease(String release) {
        Matcher m = RELEASE.matcher(release == null ? "" : release.trim());
        if (!m.find()) {
            return Optional.empty();
        }
        int[] r = {Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2))};
        KernelProfile best = ALL.getFirst();
        for (KernelProfile p : ALL) {
            if (compare(parse(p.version()), r) <= 0) {
                best = p;
            }
        }
        return Optional.of(best);
    }

    /** The oldest profiled kernel that has the ioctl, if any. */
    public static Optional<KernelProfile> firstWithIoctl(UapiIoctl ioctl) {
        return first(p -> p.hasIoctl(ioctl));
    }

    /** The oldest profiled kernel whose vdpa family has the command, if any (none for a null command). */
    public static Optional<KernelProfile> firstWithCommand(UapiVdpaCommand command) {
        return first(p -> p.hasCommand(command));
    }

    /** The oldest profiled kernel whose SET_BACKEND_FEATURES accepts the bit, if any. */
    public static Optional<KernelProfile> firstAccepting(int backendFeatureBit) {
        return first(p -> (p.acceptedBackendFeatures() & (1L << backendFeatureBit)) != 0);
    }

    /** The oldest profiled kernel whose vdpa requests may carry the attribute (vdpa_nl_policy has an entry), if any. */
    public static Optional<KernelProfile> firstAcceptingInRequests(int attribute) {
        return first(p -> p.netlink().requestPolicy().stream().anyMatch(a -> a.number() == attribute));
    }

    /** The oldest profiled kernel whose vdpa family parses the attribute number, if any. */
    public static Optional<KernelProfile> firstParsing(int attribute) {
        return first(p -> attribute <= p.netlink().maxAttr());
    }

    private static Optional<KernelProfile> first(Predicate<KernelProfile> has) {
        return ALL.stream().filter(has).findFirst();
    }

    private static int[] parse(String version) {
        String[] v = version.split("\\.");
        return new int[] {Integer.parseInt(v[0]), Integer.parseInt(v[1])};
    }

    private static int compare(int[] a, int[] b) {
        return a[0] != b[0] ? Integer.compare(a[0], b[0]) : Integer.compare(a[1], b[1]);
    }

    /**
     * A profile is its JSON file, or, when the file names a {@code "parent"} version, the parent's profile with
     * the file's fields laid over it (see {@link #overlay}): a new kernel that differs from its predecessor in
     * one fact is that fact and its source, as gVisor's nvproxy adds a driver version to its parent.
     */
    private static KernelProfile load(String version) {
        try {
            KernelProfile p = JSON.treeToValue(tree(version), KernelProfile.class);
            validate(p);
            return p;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the kernel profile " + version, e);
        }
    }

    /** A profile's merged tree (a copy: the caller may change it). */
    private static ObjectNode tree(String version) throws IOException {
        ObjectNode merged = TREES.get(version);
        if (merged == null) {
            String resource = "/org/vdpactl/abi/kernels/" + version + ".json";
            try (InputStream in = KernelProfiles.class.getResourceAsStream(resource)) {
                if (in == null) {
                    throw new IllegalStateException("missing kernel profile resource " + resource);
                }
                ObjectNode own = (ObjectNode) JSON.readTree(in.readAllBytes());
                JsonNode parent = own.remove("parent");
                if (parent != null) {
                    PARENTS.put(version, parent.asText());
                }
                merged = parent == null ? own : overlay(tree(parent.asText()), own);
            } catch (IllegalArgumentException e) {
                throw new IllegalStateException(resource + ": " + e.getMessage(), e);
            }
            // each file is parsed once, however many children name it as their parent
            TREES.put(version, merged);
        }
        return merged.deepCopy();
    }

    /**
     * {@code base} with every field of {@code delta} laid over it: objects merged field by field; a list of names
     * changed by {@code {"add": [...], "remove": [...]}} (an older kernel is its successor minus what came later,
     * a newer one its predecessor plus what it adds); anything else replaced. Removing a name the parent lacks or
     * adding one it has is refused: a typo must not pass as a fact.
     */
    static ObjectNode overlay(ObjectNode base, ObjectNode delta) {
        delta.properties().forEach(field -> {
            String name = field.getKey();
            JsonNode mine = base.get(name);
            if (mine instanceof ObjectNode object && field.getValue() instanceof ObjectNode change) {
                overlay(object, change);
            } else if (mine instanceof ArrayNode list && field.getValue() instanceof ObjectNode change) {
                base.set(name, edit(name, list, change));
            } else {
                base.set(name, field.getValue());
            }
        });
        return base;
    }

    /** The parent's list without {@code change.remove}, then with {@code change.add} appended. */
    private static ArrayNode edit(String name, ArrayNode list, ObjectNode change) {
        ArrayNode out = list.deepCopy();
        change.properties().forEach(op -> {
            if (!op.getKey().equals("add") && !op.getKey().equals("remove") || !op.getValue().isArray()) {
                throw new IllegalArgumentException(name + ": a list changes only by \"add\" or \"remove\" lists, not " + op.getKey());
            }
        });
        for (JsonNode gone : change.path("remove")) {
            int at = indexOf(out, gone);
            if (at < 0) {
                throw new IllegalArgumentException(name + ": removes " + gone + ", which the parent does not have");
            }
            out.remove(at);
        }
        for (JsonNode added : change.path("add")) {
            if (indexOf(out, added) >= 0) {
                throw new IllegalArgumentException(name + ": adds " + added + ", which the parent already has");
            }
            out.add(added);
        }
        return out;
    }

    private static int indexOf(ArrayNode list, JsonNode value) {
        for (int i = 0; i < list.size(); i++) {
            if (list.get(i).equals(value)) {
                return i;
            }
        }
        return -1;
    }

    /** Every name in a profile must be one the code knows: a typo would silently drop a feature. */
    private static void validate(KernelProfile p) {
        // ioctl and command names are enum constants: Jackson refuses a name the headers lack
        MacroValues.bitMask(p.vhost().backendFeaturesAccepted());
        MacroValues.bitMask(p.vhost().backendFeaturesOffered());
        // attribute names are enum constants too; an entry must be a request attribute the release parses
        for (UapiVdpaAttribute a : p.netlink().requestPolicy()) {
            if (a.requestPolicy() == null || a.number() > p.netlink().maxAttr()) {
                throw new IllegalStateException(p + ": " + a + " cannot be in vdpa_nl_policy (reply-only or above maxAttr)");
            }
        }
        p.drivers().values().forEach(d -> MacroValues.bitMask(d.removeFeatures()));
        if (p.vduseClasses() == null || p.vduseClassMask() == 0) {
            throw new IllegalStateException(p + ": no vduseClasses");
        }
    }
}
