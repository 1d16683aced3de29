package org.vdpactl.fake.vhost;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.vdpactl.fake.errno.KernelError;
import org.vdpactl.fake.model.MapEntry;
import org.vdpactl.sys.Errno;

/**
 * One vhost IOTLB (drivers/vhost/iotlb.c): non-overlapping {@code [iova, last]} entries over the
 * unsigned 64-bit IOVA space, with an entry limit. Overlap queries follow the interval tree's
 * rule {@code start <= last && entry.last >= first} literally, including a "range" whose last lies
 * below its first (what INVALIDATE with size 0 produces).
 */
public final class IotlbTable {
    private final TreeMap<Long, Mapped> byIova = new TreeMap<>(Long::compareUnsigned);
    private final int limit;

    /** An entry and the file reference the kernel keeps with it (VA mode), if any. */
    record Mapped(MapEntry entry, Object file) {
    }

    public IotlbTable(int limit) {
        this.limit = limit;
    }

    public int size() {
        return byIova.size();
    }

    public int limit() {
        return limit;
    }

    /** True when some entry overlaps {@code [first, last]} (interval-tree semantics). */
    public boolean overlaps(long first, long last) {
        Map.Entry<Long, Mapped> e = byIova.floorEntry(last);
        return e != null && Long.compareUnsigned(e.getValue().entry().last(), first) >= 0;
    }

    /** vhost_iotlb_add_range: ENOSPC when the table is full. */
    void add(MapEntry entry, Object file) {
        if (limit > 0 && byIova.size() >= limit) {
            throw KernelError.of(Errno.ENOSPC, "IOTLB holds its maximum of " + limit + " entries");
        }
        byIova.put(entry.iova(), new Mapped(entry, file));
    }

    /** vhost_iotlb_del_range of exactly this entry. */
    void remove(MapEntry entry) {
        byIova.remove(entry.iova());
    }

    /** Removes every whole entry overlapping {@code [first, last]} and returns them, lowest first. */
    List<Mapped> removeOverlapping(long first, long last) {
        List<Mapped> out = new ArrayList<>();
        Map.Entry<Long, Mapped> e = byIova.floorEntry(last);
        while (e != null && Long.compareUnsigned(e.getValue().entry().last(), first) >= 0) {
            out.addFirst(e.getValue());
            byIova.remove(e.getKey());
            e = byIova.lowerEntry(e.getKey());
        }
        return out;
    }

    /** The table, lowest IOVA first (what set_map hands the driver). */
    public List<MapEntry> entries() {
        List<MapEntry> out = new ArrayList<>(byIova.size());
        byIova.values().forEach(m -> out.add(m.entry()));
        return out;
    }
}
