package org.vdpactl.fake.mlx5;

import java.util.ArrayList;
import java.util.List;

/**
 * B7 of docs/spec/mlx5-model.md: building and releasing an MR. Serial (≤ v6.11): each direct key
 * is mapped and created inside the per-piece loop with one sync command. Parallel (v6.12): the
 * mapping loop runs first, then all direct creates go out as one async batch; destroys likewise.
 * The indirect key is always one sync command, after the direct keys on build and first on release.
 */
final class MkeyWork {
    private final Mlx5Params p;
    private final Mlx5Features f;
    private final FwCommands cmds;

    MkeyWork(Mlx5Params p, Mlx5Features f, FwCommands cmds) {
        this.p = p;
        this.f = f;
        this.cmds = cmds;
    }

    /** Builds the MR of {@code g}; on a command error the keys created so far are released and the errno returned. */
    int build(OpMeter m, MrGeometry g) {
        List<MrGeometry.Piece> created = new ArrayList<>();
        int err = 0;
        if (f.parallelMkeyCreate()) {
            List<FwCommand> batch = new ArrayList<>();
            for (MrGeometry.Piece piece : g.pieces()) {
                m.host(mapMs(piece));
                batch.add(cmds.directMkeyCreate(piece.mtts()));
            }
            AsyncBatch.Result r = m.batch(batch);
            for (int i = 0; i < r.errno().length; i++) {
                if (r.errno()[i] == 0) {
                    created.add(g.pieces().get(i));
                }
            }
            err = r.firstError();
        } else {
            for (MrGeometry.Piece piece : g.pieces()) {
                m.host(mapMs(piece));
                err = m.sync(cmds.directMkeyCreate(piece.mtts()));
                if (err != 0) {
                    m.host(unmapMs(piece));
                    break;
                }
                created.add(piece);
            }
        }
        if (err == 0) {
            err = m.sync(cmds.indirectMkeyCreate(g.klmEntries()));
            if (err == 0) {
                return 0;
            }
        }
        destroyDirect(m, created);
        return err;
    }

    /** Releases the MR of {@code g}: indirect key, direct keys, DMA unmap. Errors are only logged by the driver. */
    void release(OpMeter m, MrGeometry g) {
        m.sync(cmds.mkeyDestroy(0));
        destroyDirect(m, g.pieces());
    }

    void buildDma(OpMeter m) {
        m.sync(cmds.dmaMkeyCreate());
    }

    void releaseDma(OpMeter m) {
        m.sync(cmds.mkeyDestroy(0));
    }

    private void destroyDirect(OpMeter m, List<MrGeometry.Piece> pieces) {
        if (f.parallelMkeyDestroy()) {
            m.batch(pieces.stream().map(piece -> cmds.mkeyDestroy(piece.mtts())).toList());
            for (MrGeometry.Piece piece : pieces) {
                m.host(unmapMs(piece));
            }
        } else {
            for (MrGeometry.Piece piece : pieces) {
                m.sync(cmds.mkeyDestroy(piece.mtts()));
                m.host(unmapMs(piece));
            }
        }
    }

    private double mapMs(MrGeometry.Piece piece) {
        return piece.mtts() * p.hostMapPerMttNs() / 1e6;
    }

    private double unmapMs(MrGeometry.Piece piece) {
        return piece.mtts() * p.hostUnmapPerMttNs() / 1e6;
    }
}
