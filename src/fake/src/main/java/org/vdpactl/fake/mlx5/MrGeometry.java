package org.vdpactl.fake.mlx5;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.vdpactl.fake.model.MapEntry;

/**
 * The MKEY work one IOTLB table implies (docs/spec/mlx5-model.md §2.2, {@code create_user_mr()}):
 * IOVA-contiguous entries of one permission merge into segments; each segment is cut from its start
 * into pieces of at most 1 GiB ({@code MAX_KLM_SIZE}), one direct MKEY each; a piece translates
 * entities of E = 2^⌊log2 g⌋ bytes where g is the gcd of the lengths of the entries overlapping it
 * (clipped to it); every gap between segments costs ⌈G / 1 GiB⌉ null KLM entries.
 *
 * @param segments    merged IOVA-contiguous runs of one permission
 * @param nullKlms    KLM entries pointing at the null MKEY (holes)
 * @param pieces      the direct MKEYs
 * @param mappedBytes bytes translated
 */
public record MrGeometry(int segments, long nullKlms, List<Piece> pieces, long mappedBytes) {

    /** {@code MAX_KLM_SIZE}: the most one direct MKEY translates. */
    public static final long PIECE_BYTES = 1L << 30;

    /**
     * One direct MKEY.
     *
     * @param iova        first IOVA
     * @param length      bytes
     * @param entityBytes E, bytes per MTT entry
     * @param mtts        m = ⌈length / E⌉
     */
    public record Piece(long iova, long length, long entityBytes, long mtts) {
    }

    public MrGeometry {
        pieces = List.copyOf(pieces);
    }

    /** N_d: direct MKEYs. */
    public int directKeys() {
        return pieces.size();
    }

    /** K: KLM entries of the indirect key (one per direct key plus the null entries). */
    public long klmEntries() {
        return pieces.size() + nullKlms;
    }

    /** M: MTT entries over all direct keys. */
    public long mttEntries() {
        return pieces.stream().mapToLong(Piece::mtts).sum();
    }

    /** The geometry of a set_map table (any order; entries must not overlap). */
    public static MrGeometry of(List<MapEntry> table) {
        if (table.isEmpty()) {
            throw new IllegalArgumentException("an empty table has no MR");
        }
        List<MapEntry> sorted = new ArrayList<>(table);
        sorted.sort(Comparator.comparingLong(MapEntry::iova));
        List<List<MapEntry>> segments = new ArrayList<>();
        List<MapEntry> current = new ArrayList<>();
        long nullKlms = 0;
        long mapped = 0;
        for (MapEntry e : sorted) {
            if (e.size() <= 0) {
                throw new IllegalArgumentException("entry of size " + e.size() + " at 0x" + Long.toHexString(e.iova()));
            }
            mapped += e.size();
            if (!current.isEmpty()) {
                MapEntry prev = current.getLast();
                long gap = e.iova() - (prev.iova() + prev.size());
                if (gap < 0) {
                    throw new IllegalArgumentException("overlapping entries at 0x" + Long.toHexString(e.iova()));
                }
                if (gap > 0 || e.perm() != prev.perm()) {
                    segments.add(current);
                    current = new ArrayList<>();
                    nullKlms += ceilDiv(gap, PIECE_BYTES);
                }
            }
            current.add(e);
        }
        segments.add(current);
        List<Piece> pieces = new ArrayList<>();
        for (List<MapEntry> segment : segments) {
            cut(segment, pieces);
        }
        return new MrGeometry(segments.size(), nullKlms, pieces, mapped);
    }

    private static void cut(List<MapEntry> segment, List<Piece> out) {
        long start = segment.getFirst().iova();
        long end = segment.getLast().iova() + segment.getLast().size();
        int first = 0;
        for (long pieceStart = start; pieceStart < end; pieceStart += Math.min(PIECE_BYTES, end - pieceStart)) {
            long pieceEnd = pieceStart + Math.min(PIECE_BYTES, end - pieceStart);
            long g = 0;
            int i = first;
            while (i < segment.size() && segment.get(i).iova() < pieceEnd) {
                MapEntry e = segment.get(i);
                long clipped = Math.min(e.iova() + e.size(), pieceEnd) - Math.max(e.iova(), pieceStart);
                g = gcd(g, clipped);
                if (e.iova() + e.size() <= pieceEnd) {
                    first = i + 1;
                }
                i++;
            }
            long entity = Long.highestOneBit(g);
            long length = pieceEnd - pieceStart;
            out.add(new Piece(pieceStart, length, entity, ceilDiv(length, entity)));
        }
    }

    private static long gcd(long a, long b) {
        while (b != 0) {
            long t = a % b;
            a = b;
            b = t;
        }
        return a;
    }

    private static long ceilDiv(long a, long b) {
        return (a + b - 1) / b;
    }
}
