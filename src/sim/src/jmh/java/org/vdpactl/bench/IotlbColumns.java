package org.vdpactl.bench;

import java.util.ArrayList;
import java.util.List;
import org.vdpactl.vhost.IotlbMessage;
import org.vdpactl.vhost.IotlbPlan;

/**
 * The messages of plans as the primitive columns {@code apply} reads (IotlbPlan keeps its own package-private), for
 * {@link IotlbBench}'s steps that encode without the library around them.
 */
final class IotlbColumns {
    final int[] asid;
    final int[] type;
    final long[] iova;
    final long[] size;
    final long[] uaddr;
    final int[] perm;

    private IotlbColumns(int n) {
        asid = new int[n];
        type = new int[n];
        iova = new long[n];
        size = new long[n];
        uaddr = new long[n];
        perm = new int[n];
    }

    static IotlbColumns of(IotlbPlan... plans) {
        List<IotlbMessage> all = new ArrayList<>();
        for (IotlbPlan p : plans) {
            all.addAll(p.messages());
        }
        IotlbColumns c = new IotlbColumns(all.size());
        for (int i = 0; i < all.size(); i++) {
            IotlbMessage m = all.get(i);
            c.asid[i] = m.asid();
            c.type[i] = m.type();
            c.iova[i] = m.iova();
            c.size[i] = m.size();
            c.uaddr[i] = m.uaddr();
            c.perm[i] = m.perm();
        }
        return c;
    }
}
