package org.vdpactl.vhost;

import static org.junit.jupiter.api.Assertions.assertEquals;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/** The 72-byte wire format of kernel-abi.md §2.1 / §5.1 on any message (jqwik; the examples are IotlbCodecTest). */
class IotlbCodecProperties {
    @Property
    void roundTripOfAnyV2Message(@ForAll int asid, @ForAll @IntRange(min = 0, max = 255) int type, @ForAll long iova,
            @ForAll long size, @ForAll long uaddr, @ForAll @IntRange(min = 0, max = 255) int perm) {
        IotlbMessage m = new IotlbMessage(IotlbCodec.V2, asid, type, iova, size, uaddr, perm);
        assertEquals(m, IotlbCodec.fromBytes(IotlbCodec.toBytes(m)));
    }
}
