package org.vdpactl.vhost;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * A set of vhost backend feature bits (VHOST_GET/SET_BACKEND_FEATURES). Bits the enum does not know
 * are kept and named "bit N".
 *
 * @param bits the raw u64
 */
public record BackendFeatures(long bits) {
    public static final BackendFeatures NONE = new BackendFeatures(0);

    /**
     * What a live-migration orchestrator cannot work without: V2 messages, batching, ASIDs and a
     * device that can be suspended and resumed.
     */
    public static final BackendFeatures ORCHESTRATION = of(BackendFeature.IOTLB_MSG_V2, BackendFeature.IOTLB_BATCH,
            BackendFeature.IOTLB_ASID, BackendFeature.SUSPEND, BackendFeature.RESUME);

    public static BackendFeatures of(BackendFeature... features) {
        long b = 0;
        for (BackendFeature f : features) {
            b |= f.mask();
        }
        return new BackendFeatures(b);
    }

    public boolean has(BackendFeature f) {
        return (bits & f.mask()) != 0;
    }

    public boolean containsAll(BackendFeatures other) {
        return (bits & other.bits) == other.bits;
    }

    public BackendFeatures and(BackendFeatures other) {
        return new BackendFeatures(bits & other.bits);
    }

    public BackendFeatures or(BackendFeatures other) {
        return new BackendFeatures(bits | other.bits);
    }

    /** The bits of this set that {@code other} lacks. */
    public BackendFeatures minus(BackendFeatures other) {
        return new BackendFeatures(bits & ~other.bits);
    }

    public BackendFeatures with(BackendFeature f) {
        return new BackendFeatures(bits | f.mask());
    }

    public boolean isEmpty() {
        return bits == 0;
    }

    /** The known features in the set. */
    public Set<BackendFeature> features() {
        Set<BackendFeature> s = EnumSet.noneOf(BackendFeature.class);
        for (BackendFeature f : BackendFeature.values()) {
            if (has(f)) {
                s.add(f);
            }
        }
        return s;
    }

    /** Names in bit order: "IOTLB_MSG_V2", ..., "bit 12" for unknown bits. */
    public List<String> names() {
        List<String> out = new ArrayList<>();
        for (int bit = 0; bit < 64; bit++) {
            if ((bits & (1L << bit)) != 0) {
                BackendFeature f = BackendFeature.ofBit(bit);
                out.add(f != null ? f.name() : "bit " + bit);
            }
        }
        return out;
    }

    /** "0x17e (IOTLB_MSG_V2|IOTLB_BATCH|...)". */
    @Override
    public String toString() {
        return "0x" + Long.toHexString(bits) + (bits == 0 ? "" : " (" + String.join("|", names()) + ")");
    }
}
