package org.vdpactl.fake.state;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Applies one process's changes to the state another process may have changed since it was loaded:
 * what this process deleted, added or changed (by device name, from {@code base} to {@code mine})
 * is replayed on the state now on disk. Devices the others added or deleted meanwhile stay as they
 * are; a device this process created gets another free minor when someone else took its minor. A management
 * device's PCI function is merged per attribute (MAC, MTU, link): what this process changed, the rest as on disk.
 */
public final class InventoryMerge {
    private InventoryMerge() {
    }

    /**
     * @throws FakeStateStore.StateConflictException when this process created a device whose name
     *                                               another process created meanwhile
     * @throws FakeStateStore.DeletedMeanwhileException when this process deleted a device another process
     *                                                deleted meanwhile
     */
    public static Inventory apply(Inventory disk, Inventory base, Inventory mine) {
        Map<String, Inventory.Device> baseByName = byName(base.devices());
        Map<String, Inventory.Device> mineByName = byName(mine.devices());
        Map<String, Inventory.Device> diskByName = byName(disk.devices());
        for (String deleted : baseByName.keySet()) {
            if (!mineByName.containsKey(deleted) && !diskByName.containsKey(deleted)) {
                throw new FakeStateStore.DeletedMeanwhileException("device " + deleted
                        + " was deleted by another vdpactl process meanwhile (ENODEV: no such device)");
            }
        }
        List<Inventory.Device> out = new ArrayList<>();
        for (Inventory.Device d : withMinors(disk.devices())) {
            Inventory.Device before = baseByName.get(d.name());
            Inventory.Device now = mineByName.get(d.name());
            if (before != null && now == null) {
                continue; // deleted here
            }
            out.add(before != null && !before.equals(now) ? now : d);
        }
        BitSet used = new BitSet();
        out.forEach(d -> used.set(d.minor()));
        for (Inventory.Device d : mine.devices()) {
            if (baseByName.containsKey(d.name())) {
                continue;
            }
            if (out.stream().anyMatch(o -> o.name().equals(d.name()))) {
                throw new FakeStateStore.StateConflictException("device " + d.name()
                        + " was created by another vdpactl process meanwhile (EEXIST); this process's device was not saved");
            }
            int minor = d.minor() != null && !used.get(d.minor()) ? d.minor() : used.nextClearBit(0);
            used.set(minor);
            out.add(d.withMinor(minor));
        }
        return new Inventory(mergeMgmtdevs(disk.mgmtdevs(), base.mgmtdevs(), mine.mgmtdevs()), out);
    }

    /**
     * Management devices by their key (everything but the function's state): the ones on disk stay, each with its
     * function merged attribute by attribute ({@link Inventory.Function#merge}); one this process added is added.
     */
    private static List<Inventory.Mgmt> mergeMgmtdevs(List<Inventory.Mgmt> disk, List<Inventory.Mgmt> base,
                                                      List<Inventory.Mgmt> mine) {
        Map<Inventory.Mgmt, Inventory.Mgmt> baseByKey = byKey(base);
        Map<Inventory.Mgmt, Inventory.Mgmt> mineByKey = byKey(mine);
        Map<Inventory.Mgmt, Inventory.Mgmt> out = new LinkedHashMap<>();
        for (Inventory.Mgmt d : disk) {
            Inventory.Mgmt before = baseByKey.get(d.key());
            Inventory.Mgmt now = mineByKey.get(d.key());
            out.put(d.key(), before == null || now == null ? d
                    : d.withFunction(Inventory.Function.merge(d.function(), before.function(), now.function())));
        }
        for (Inventory.Mgmt m : mine) {
            if (!baseByKey.containsKey(m.key())) {
                out.putIfAbsent(m.key(), m);
            }
        }
        return List.copyOf(out.values());
    }

    private static Map<Inventory.Mgmt, Inventory.Mgmt> byKey(List<Inventory.Mgmt> mgmts) {
        Map<Inventory.Mgmt, Inventory.Mgmt> m = new LinkedHashMap<>();
        mgmts.forEach(g -> m.put(g.key(), g));
        return m;
    }

    /** Devices with every minor explicit, as a kernel installing them in order would assign them. */
    static List<Inventory.Device> withMinors(List<Inventory.Device> devices) {
        BitSet used = new BitSet();
        devices.stream().map(Inventory.Device::minor).filter(Objects::nonNull).forEach(used::set);
        List<Inventory.Device> out = new ArrayList<>();
        for (Inventory.Device d : devices) {
            if (d.minor() != null) {
                out.add(d);
            } else {
                int minor = used.nextClearBit(0);
                used.set(minor);
                out.add(d.withMinor(minor));
            }
        }
        return out;
    }

    private static Map<String, Inventory.Device> byName(List<Inventory.Device> devices) {
        Map<String, Inventory.Device> m = new LinkedHashMap<>();
        devices.forEach(d -> m.put(d.name(), d));
        return m;
    }
}
