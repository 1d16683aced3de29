package org.vdpactl.abi;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.vdpactl.abi.json.JsonReadException;
import org.vdpactl.abi.json.RecordJson;

/**
 * The kernel versions the fake can speak, oldest first: Debian 12's 6.1, the 6.12 LTS (the
 * default, what the fake always was) and the newest kernel Debian unstable ships (7.2).
 */
public final class KernelProfiles {
    /**
     * The lane matrix (scripts/vm/lane-matrix.tsv), which the build copies beside the profiles: the one list of the
     * kernels the project speaks, read by every lane script too. A kernel is added by its profile file and its line
     * there; no list here is edited.
     */
    private static final String MATRIX = "/org/vdpactl/abi/kernels/lane-matrix.tsv";
    /** The versions, oldest first: the profile column of the lane matrix. */
    public static final List<String> VERSIONS = matrixProfiles();
    /** The default profile's version. */
    public static final String DEFAULT_VERSION = "6.12";
    private static final Pattern RELEASE = Pattern.compile("^(\\d+)\\.(\\d+)");
    /**
     * The profiles read so far, by version, and each file's merged tree. A profile is read when first asked for, with
     * its parents only: a command that speaks one kernel parses one or two files, not every kernel's (start-up).
     */
    private static final Map<String, KernelProfile> LOADED = new HashMap<>();
    private static final Map<String, Map<String, Object>> TREES = new HashMap<>();
    /** Each delta profile's parent version, by version. */
    private static final Map<String, String> PARENTS = new HashMap<>();
    private static volatile List<KernelProfile> all;

    private KernelProfiles() {
    }

    /** The distinct profiles the lane matrix names (its second column), oldest first. */
    private static List<String> matrixProfiles() {
        try (InputStream in = KernelProfiles.class.getResourceAsStream(MATRIX)) {
            if (in == null) {
                throw new IllegalStateException("missing " + MATRIX + " (the build copies scripts/vm/lane-matrix.tsv)");
            }
            List<String> versions = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().map(String::strip)
                    .filter(l -> !l.isEmpty() && !l.startsWith("#")).map(l -> l.split("\\s+")[1]).distinct().toList();
            if (versions.isEmpty()) {
                throw new IllegalStateException(MATRIX + " names no kernel");
            }
            return versions.stream().sorted((a, b) -> compare(parse(a), parse(b))).toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + MATRIX, e);
        }
    }

    /** Every profile, oldest first. */
    public static List<KernelProfile> all() {
        List<KernelProfile> a = all;
        if (a == null) {
            List<KernelProfile> read = new ArrayList<>();
            for (String v : VERSIONS) {
                read.add(profile(v));
            }
            a = all = List.copyOf(read);
        }
        return a;
    }

    /** The version a profile is a delta over ({@code "parent"} in its file), if any. */
    public static Optional<String> parentOf(String version) {
        if (!VERSIONS.contains(version)) {
            return Optional.empty();
        }
        synchronized (KernelProfiles.class) {
            profile(version);
            return Optional.ofNullable(PARENTS.get(version));
        }
    }

    /** The profile of one of {@link #VERSIONS}, read on first use. */
    private static synchronized KernelProfile profile(String version) {
        KernelProfile p = LOADED.get(version);
        if (p == null) {
            p = load(version);
            LOADED.put(version, p);
        }
        return p;
    }

    /** The default profile (6.12). */
    public static KernelProfile defaultProfile() {
        return byName(DEFAULT_VERSION).orElseThrow();
    }

    /** The newest profile. */
    public static KernelProfile newest() {
        return profile(VERSIONS.getLast());
    }

    /** A profile by version or alias ("6.1", "newest", "lts"). */
    public static Optional<KernelProfile> byName(String name) {
        if (VERSIONS.contains(name)) {
            // a version is its own file's name: no other profile needs reading (an alias is inside the files)
            return Optional.of(profile(name));
        }
        return all().stream().filter(p -> p.answersTo(name)).findFirst();
    }

    /** The names {@code --fake-kernel} accepts, for messages: "6.1|6.12|7.2 (aliases ...)". */
    public static String accepted() {
        StringBuilder b = new StringBuilder(String.join("|", VERSIONS));
        b.append(" (or ");
        b.append(String.join(", ", all().stream().flatMap(p -> p.aliases().stream()).toList()));
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
        KernelProfile best = all().getFirst();
        for (KernelProfile p : all()) {
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

    /** The profiled kernels that have the ioctl, oldest first (empty when none has it). */
    public static List<KernelProfile> withIoctl(UapiIoctl ioctl) {
        return all().stream().filter(p -> p.hasIoctl(ioctl)).toList();
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
        return all().stream().filter(has).findFirst();
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
            KernelProfile p = RecordJson.bind(tree(version), KernelProfile.class);
            validate(p);
            return p;
        } catch (JsonReadException e) {
            throw new IllegalStateException("kernel profile " + version + ": " + e.getMessage(), e);
        }
    }

    /** A profile's merged tree (a copy: the caller may change it). */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> tree(String version) {
        Map<String, Object> merged = TREES.get(version);
        if (merged == null) {
            String resource = "/org/vdpactl/abi/kernels/" + version + ".json";
            try (InputStream in = KernelProfiles.class.getResourceAsStream(resource)) {
                if (in == null) {
                    throw new IllegalStateException("missing kernel profile resource " + resource);
                }
                Map<String, Object> own = (Map<String, Object>) RecordJson.tree(in.readAllBytes());
                Object parent = own.remove("parent");
                if (parent != null) {
                    PARENTS.put(version, (String) parent);
                }
                merged = parent == null ? own : overlay(tree((String) parent), own);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the kernel profile " + version, e);
            } catch (IllegalArgumentException | JsonReadException | ClassCastException e) {
                throw new IllegalStateException(resource + ": " + e.getMessage(), e);
            }
            // each file is parsed once, however many children name it as their parent
            TREES.put(version, merged);
        }
        return deepCopy(merged);
    }

    @SuppressWarnings("unchecked")
    private static <T> T deepCopy(T tree) {
        if (tree instanceof Map<?, ?> m) {
            Map<String, Object> copy = new LinkedHashMap<>();
            m.forEach((k, v) -> copy.put((String) k, deepCopy(v)));
            return (T) copy;
        }
        if (tree instanceof List<?> l) {
            List<Object> copy = new ArrayList<>();
            l.forEach(v -> copy.add(deepCopy(v)));
            return (T) copy;
        }
        return tree;
    }

    /**
     * {@code base} with every field of {@code delta} laid over it: objects merged field by field; a list of names
     * changed by {@code {"add": [...], "remove": [...]}} (an older kernel is its successor minus what came later,
     * a newer one its predecessor plus what it adds); anything else replaced. Removing a name the parent lacks or
     * adding one it has is refused: a typo must not pass as a fact.
     */
    @SuppressWarnings("unchecked")
    static Map<String, Object> overlay(Map<String, Object> base, Map<String, Object> delta) {
        delta.forEach((name, value) -> {
            Object mine = base.get(name);
            if (mine instanceof Map<?, ?> object && value instanceof Map<?, ?> change) {
                overlay((Map<String, Object>) object, (Map<String, Object>) change);
            } else if (mine instanceof List<?> list && value instanceof Map<?, ?> change) {
                base.put(name, edit(name, list, (Map<String, Object>) change));
            } else {
                base.put(name, value);
            }
        });
        return base;
    }

    /** The parent's list without {@code change.remove}, then with {@code change.add} appended. */
    private static List<Object> edit(String name, List<?> list, Map<String, Object> change) {
        List<Object> out = deepCopy(new ArrayList<Object>(list));
        change.forEach((op, names) -> {
            if (!op.equals("add") && !op.equals("remove") || !(names instanceof List)) {
                throw new IllegalArgumentException(name + ": a list changes only by \"add\" or \"remove\" lists, not " + op);
            }
        });
        for (Object gone : (List<?>) change.getOrDefault("remove", List.of())) {
            int at = out.indexOf(gone);
            if (at < 0) {
                throw new IllegalArgumentException(name + ": removes " + text(gone) + ", which the parent does not have");
            }
            out.remove(at);
        }
        for (Object added : (List<?>) change.getOrDefault("add", List.of())) {
            if (out.indexOf(added) >= 0) {
                throw new IllegalArgumentException(name + ": adds " + text(added) + ", which the parent already has");
            }
            out.add(added);
        }
        return out;
    }

    /** A value as JSON shows it (a name in quotes), for messages. */
    private static String text(Object value) {
        return value instanceof String s ? "\"" + s + "\"" : String.valueOf(value);
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
