package org.vdpactl.fake.mlx5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.vdpactl.fake.model.MapEntry;
import org.vdpactl.sim.UpstreamScenarios;

/** §2.2 geometry and the worked examples of §2.3. */
class Mlx5MrGeometryTest {
    private static final long GIB = 1L << 30;
    private static final long MIB = 1L << 20;
    private final FwCommands cmds = new FwCommands(Mlx5Params.DEFAULT);

    @ParameterizedTest(name = "2+254 GiB at entity {0}")
    @CsvSource({"4096, 262144, 67108864, 4097", "2097152, 512, 131072, 9", "1073741824, 1, 256, 1"})
    void theTableOfSection23(long entity, long mPerKey, long totalMtts, long blocks) {
        MrGeometry g = MrGeometry.of(UpstreamScenarios.guestMemory(entity));
        assertEquals(2, g.segments());
        assertEquals(256, g.directKeys());
        assertEquals(2, g.nullKlms(), "one 2 GiB hole = two 1 GiB null KLMs");
        assertEquals(258, g.klmEntries());
        for (MrGeometry.Piece p : g.pieces()) {
            assertEquals(entity, p.entityBytes());
            assertEquals(mPerKey, p.mtts());
        }
        assertEquals(totalMtts, g.mttEntries());
        assertEquals(blocks, cmds.directMkeyCreate(mPerKey).inputBlocks());
        assertEquals(256 * GIB, g.mappedBytes());
    }

    @Test
    void indirectKeyOf258KlmsNeedsNineBlocks() {
        assertEquals(9, cmds.indirectMkeyCreate(258).inputBlocks());
    }

    @Test
    void contiguousRegionsGiveTheSameWorkAsOneRegion() {
        List<MapEntry> regions = new ArrayList<>();
        for (int i = 0; i < 256; i++) {
            regions.add(new MapEntry(i * GIB, GIB, 0x1000_0000_0000L + 3 * i * GIB, 3));
        }
        MrGeometry many = MrGeometry.of(regions);
        MrGeometry one = MrGeometry.of(List.of(new MapEntry(0, 256 * GIB, 0, 3)));
        assertEquals(1, many.segments());
        assertEquals(one.pieces(), many.pieces());
        assertEquals(256, many.klmEntries());
        assertEquals(GIB, many.pieces().getFirst().entityBytes());
    }

    @Test
    void onePageRunMakesItsWholePieceFineGrained() {
        MrGeometry g = MrGeometry.of(List.of(new MapEntry(0, 3 * GIB - 4096, 0, 3), new MapEntry(3 * GIB - 4096, 4096, 0, 3)));
        assertEquals(3, g.directKeys());
        assertEquals(GIB, g.pieces().get(0).entityBytes());
        assertEquals(GIB, g.pieces().get(1).entityBytes());
        assertEquals(4096, g.pieces().get(2).entityBytes(), "gcd(1 GiB − 4 KiB, 4 KiB) in the last piece");
    }

    @Test
    void entitySizeIsThePowerOfTwoBelowTheGcd() {
        // 6 MiB + 6 MiB: gcd 6 MiB → E = 4 MiB, m = ⌈12/4⌉
        MrGeometry g = MrGeometry.of(List.of(new MapEntry(0, 6 * MIB, 0, 3), new MapEntry(6 * MIB, 6 * MIB, 0, 3)));
        assertEquals(4 * MIB, g.pieces().getFirst().entityBytes());
        assertEquals(3, g.pieces().getFirst().mtts());
    }

    @Test
    void piecesAreCutFromTheSegmentStartAndHolesRoundUp() {
        MrGeometry g = MrGeometry.of(List.of(new MapEntry(512 * MIB, GIB + 512 * MIB, 0, 3),
                new MapEntry(2 * GIB + GIB + MIB, GIB, 0, 3)));
        assertEquals(List.of(512 * MIB, 512 * MIB + GIB), g.pieces().stream().limit(2).map(MrGeometry.Piece::iova).toList());
        assertEquals(GIB / 2, g.pieces().get(1).length());
        assertEquals(2, g.nullKlms(), "a hole of 1 GiB + 1 MiB needs two null KLMs");
        assertEquals(5, g.klmEntries());
    }

    @Test
    void aPermissionChangeSplitsSegmentsWithoutANullKlm() {
        MrGeometry g = MrGeometry.of(List.of(new MapEntry(0, GIB, 0, 3), new MapEntry(GIB, GIB, 0, 1)));
        assertEquals(2, g.segments());
        assertEquals(0, g.nullKlms());
    }

    @Test
    void overlappingOrEmptyTablesAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> MrGeometry.of(List.of()));
        assertThrows(IllegalArgumentException.class,
                () -> MrGeometry.of(List.of(new MapEntry(0, 2 * MIB, 0, 3), new MapEntry(MIB, MIB, 0, 3))));
    }
}
