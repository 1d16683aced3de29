package org.vdpactl.netlink;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tag;
import net.jqwik.api.constraints.Size;
import org.vdpactl.netlink.NetlinkMessage.ErrorMessage;
import org.vdpactl.netlink.NetlinkMessage.GenlMessage;

/** The decoder never fails with anything but a typed parse error, and what the writer encodes decodes back. */
@Tag("fuzz")
class NetlinkDecoderProperties {

    @Property
    void arbitraryBytesDecodeOrFailTyped(@ForAll @Size(max = 300) byte[] bytes) {
        decodeDeeply(bytes);
    }

    @Property
    void corruptedValidMessagesDecodeOrFailTyped(@ForAll("validMessage") byte[] valid, @ForAll int position, @ForAll byte value) {
        byte[] bytes = valid.clone();
        bytes[Math.floorMod(position, bytes.length)] = value;
        decodeDeeply(bytes);
    }

    @Property
    void encodedAttributesDecodeBack(@ForAll("attributes") List<Attribute> attrs) {
        MessageWriter w = new MessageWriter(16);
        w.beginMessage(19, NetlinkAbi.NLM_F_MULTI, 1, 2).genlHeader(3, 1);
        for (Attribute a : attrs) {
            w.putAttribute(a.type() | a.flags(), a.payload());
        }
        w.endMessage();
        GenlMessage g = (GenlMessage) NetlinkDecoder.decode(w.toByteArray()).getFirst();
        assertEquals(attrs, g.attributes().list());
    }

    @Provide
    Arbitrary<List<Attribute>> attributes() {
        Arbitrary<Attribute> one = Combinators.combine(
                Arbitraries.integers().between(1, 0x3fff),
                Arbitraries.of(0, NetlinkAbi.NLA_F_NESTED, NetlinkAbi.NLA_F_NET_BYTEORDER),
                Arbitraries.bytes().array(byte[].class).ofMaxSize(40)).as(Attribute::new);
        return one.list().ofMaxSize(12);
    }

    @Provide
    Arbitrary<byte[]> validMessage() {
        return attributes().map(list -> {
            MessageWriter w = new MessageWriter(16);
            w.beginMessage(NetlinkAbi.NLMSG_ERROR, NetlinkAbi.NLM_F_ACK_TLVS, 1, 2).putRaw(new byte[20]);
            for (Attribute a : list) {
                w.putAttribute(a.type() | a.flags(), a.payload());
            }
            w.endMessage();
            w.beginMessage(19, 0, 1, 2).genlHeader(1, 1);
            for (Attribute a : list) {
                w.putAttribute(a.type() | a.flags(), a.payload());
            }
            w.endMessage();
            return w.toByteArray();
        });
    }

    /** Decodes and then touches everything a caller might read. Only NetlinkParseException may escape. */
    private static void decodeDeeply(byte[] bytes) {
        try {
            for (NetlinkMessage m : NetlinkDecoder.decode(bytes)) {
                if (m instanceof GenlMessage g) {
                    for (Attribute a : g.attributes()) {
                        touch(a);
                    }
                } else if (m instanceof ErrorMessage e) {
                    e.extack().policyDescription();
                    new NetlinkException("fuzz", Math.max(1, e.errno() & 0xfff), e.extack()).getMessage();
                }
            }
        } catch (NetlinkParseException expected) {
            // the only failure the decoder may report
        }
    }

    private static void touch(Attribute a) {
        a.string();
        if (a.length() > 0) {
            a.unsigned();
        }
        try {
            for (Attribute inner : a.nested()) {
                touch(inner);
            }
        } catch (NetlinkParseException notNested) {
            // a non-nested payload is not a list of attributes: a typed error is right
        }
    }
}
