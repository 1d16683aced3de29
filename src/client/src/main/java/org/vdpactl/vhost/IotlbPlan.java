package org.vdpactl.vhost;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.List;

/**
 * An ordered list of IOTLB messages ready to be written by {@link VhostVdpaDevice#apply(IotlbPlan)}.
 * Stored as primitive columns so that writing it allocates nothing per message. Immutable.
 */
public final class IotlbPlan {
    public static final IotlbPlan EMPTY = new IotlbPlan(new int[0], new int[0], new long[0], new long[0], new long[0], new byte[0]);

    final int[] asid;
    final int[] type;
    final long[] iova;
    final long[] size;
    final long[] uaddr;
    final byte[] perm;

    IotlbPlan(int[] asid, int[] type, long[] iova, long[] size, long[] uaddr, byte[] perm) {
        this.asid = asid;
        this.type = type;
        this.iova = iova;
        this.size = size;
        this.uaddr = uaddr;
        this.perm = perm;
    }

    /** A plan of exactly these messages, in this order (V1/V2 is chosen when writing). */
    public static IotlbPlan of(List<IotlbMessage> messages) {
        Builder b = new Builder(messages.size());
        for (IotlbMessage m : messages) {
            b.add(m.asid(), m.type(), m.iova(), m.size(), m.uaddr(), m.perm());
        }
        return b.build();
    }

    /** The messages of all plans, one after the other. */
    public static IotlbPlan concat(IotlbPlan... plans) {
        int n = 0;
        for (IotlbPlan p : plans) {
            n += p.size();
        }
        Builder b = new Builder(n);
        for (IotlbPlan p : plans) {
            for (int i = 0; i < p.size(); i++) {
                b.add(p.asid[i], p.type[i], p.iova[i], p.size[i], p.uaddr[i], Byte.toUnsignedInt(p.perm[i]));
            }
        }
        return b.build();
    }

    /** Number of messages. */
    public int size() {
        return type.length;
    }

    public IotlbMessage message(int i) {
        return new IotlbMessage(IotlbCodec.V2, asid[i], type[i], iova[i], size[i], uaddr[i], Byte.toUnsignedInt(perm[i]));
    }

    /** A read-only view of the messages. */
    public List<IotlbMessage> messages() {
        return new AbstractList<>() {
            @Override
            public IotlbMessage get(int index) {
                return message(index);
            }

            @Override
            public int size() {
                return IotlbPlan.this.size();
            }
        };
    }

    public int count(IotlbMessageType t) {
        int n = 0;
        for (int c : type) {
            if (c == t.code()) {
                n++;
            }
        }
        return n;
    }

    /** Number of BATCH_BEGIN..BATCH_END groups. */
    public int batchCount() {
        return count(IotlbMessageType.BATCH_BEGIN);
    }

    /** Sum of the UPDATE sizes (unsigned arithmetic; saturates at 2^64-1). */
    public long mappedBytes() {
        long total = 0;
        for (int i = 0; i < type.length; i++) {
            if (type[i] == IotlbMessageType.UPDATE.code()) {
                long t = total + size[i];
                total = Long.compareUnsigned(t, total) < 0 ? -1L : t;
            }
        }
        return total;
    }

    @Override
    public String toString() {
        return "IotlbPlan[" + size() + " messages, " + count(IotlbMessageType.UPDATE) + " updates, "
                + count(IotlbMessageType.INVALIDATE) + " invalidates, " + batchCount() + " batches]";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof IotlbPlan p && Arrays.equals(asid, p.asid) && Arrays.equals(type, p.type)
                && Arrays.equals(iova, p.iova) && Arrays.equals(size, p.size) && Arrays.equals(uaddr, p.uaddr)
                && Arrays.equals(perm, p.perm);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(iova) * 31 + Arrays.hashCode(type);
    }

    /** Grows the columns as messages are added. */
    static final class Builder {
        private int n;
        private int[] asid;
        private int[] type;
        private long[] iova;
        private long[] size;
        private long[] uaddr;
        private byte[] perm;

        Builder(int capacity) {
            int c = Math.max(4, capacity);
            asid = new int[c];
            type = new int[c];
            iova = new long[c];
            size = new long[c];
            uaddr = new long[c];
            perm = new byte[c];
        }

        Builder add(int a, int t, long i, long s, long u, int p) {
            if (n == type.length) {
                int c = n * 2;
                asid = Arrays.copyOf(asid, c);
                type = Arrays.copyOf(type, c);
                iova = Arrays.copyOf(iova, c);
                size = Arrays.copyOf(size, c);
                uaddr = Arrays.copyOf(uaddr, c);
                perm = Arrays.copyOf(perm, c);
            }
            asid[n] = a;
            type[n] = t;
            iova[n] = i;
            size[n] = s;
            uaddr[n] = u;
            perm[n] = (byte) p;
            n++;
            return this;
        }

        IotlbPlan build() {
            if (n == type.length) {
                // filled exactly (the planner sizes it so): the arrays become the plan's, no copy
                return new IotlbPlan(asid, type, iova, size, uaddr, perm);
            }
            return new IotlbPlan(Arrays.copyOf(asid, n), Arrays.copyOf(type, n), Arrays.copyOf(iova, n),
                    Arrays.copyOf(size, n), Arrays.copyOf(uaddr, n), Arrays.copyOf(perm, n));
        }
    }
}
