package org.vdpactl.fake.mlx5;

import java.util.ArrayList;
import java.util.List;

/**
 * FW asking mlx5_core to give pages back (§4.5.7): requests of at most {@code reclaimCapPages}
 * pages, each freeing ⌈8n/512⌉ mailbox blocks on mlx5_core's page workqueue, off every caller's
 * path (the reserved MANAGE_PAGES slot, not the regular ones). When FW asks is not documented;
 * the trigger is left to fault or scenario injection.
 *
 * @param requests         MANAGE_PAGES requests
 * @param blocksPerRequest mailbox blocks freed by each
 * @param hostMs           host time freeing them
 */
public record PageReclaim(int requests, List<Long> blocksPerRequest, double hostMs) {

    public PageReclaim {
        blocksPerRequest = List.copyOf(blocksPerRequest);
    }

    /** The work of reclaiming {@code pages} pages under {@code f}'s cap. */
    public static PageReclaim of(Mlx5Params p, Mlx5Features f, long pages) {
        List<Long> blocks = new ArrayList<>();
        double hostMs = 0;
        for (long left = pages; left > 0; ) {
            long n = Math.min(left, f.reclaimCapPages());
            long b = (8 * n + p.blockBytes() - 1) / p.blockBytes();
            blocks.add(b);
            double perBlockUs = b > p.reclaimSlowAboveBlocks() ? p.reclaimSlowUsPerBlock() : p.reclaimFastUsPerBlock();
            hostMs += b * perBlockUs / 1_000.0;
            left -= n;
        }
        return new PageReclaim(blocks.size(), blocks, hostMs);
    }
}
