package org.vdpactl.netlink;

import static org.vdpactl.netlink.NetlinkAbi.NLA_HDRLEN;
import static org.vdpactl.netlink.NetlinkAbi.NLA_LEN;
import static org.vdpactl.netlink.NetlinkAbi.NLA_LEN_OFFSET;
import static org.vdpactl.netlink.NetlinkAbi.NLA_TYPE;
import static org.vdpactl.netlink.NetlinkAbi.NLA_TYPE_MASK;
import static org.vdpactl.netlink.NetlinkAbi.NLA_TYPE_OFFSET;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.vdpactl.abi.NetlinkAttribute;

/**
 * The attributes of one message (or of one nested attribute), in wire order.
 *
 * <p>Parsing is tolerant the way a long-lived client must be: attributes of unknown types are
 * kept (callers ignore what they do not know), zero-length type-0 pad attributes are skipped, and
 * fewer than four stray bytes after the last attribute are ignored. An attribute whose length is
 * below its header or runs past the area is a {@link NetlinkParseException}.
 *
 * <p>The getters that take a {@link NetlinkAttribute} read by its declared type and refuse, as a
 * {@link NetlinkParseException} naming the attribute, a payload shorter than the type needs (the check the kernel's
 * policy validation makes of a request). The getters that take a raw type read by length.
 */
public final class Attributes implements Iterable<Attribute> {
    public static final Attributes EMPTY = new Attributes(List.of());

    private final List<Attribute> list;

    private Attributes(List<Attribute> list) {
        this.list = list;
    }

    /** Parses {@code length} bytes at {@code offset} of {@code segment}. */
    public static Attributes parse(MemorySegment segment, long offset, long length) {
        return parse(segment, offset, length, false);
    }

    /**
     * Parses a nest whose attribute types are indexes counted from 0 (nlctrl's policy dump numbers
     * its policies so): type 0 is kept, not skipped as a pad attribute.
     */
    public static Attributes parseIndexed(byte[] area) {
        return parse(MemorySegment.ofArray(area), 0, area.length, true);
    }

    private static Attributes parse(MemorySegment segment, long offset, long length, boolean keepTypeZero) {
        if (length <= 0) {
            return EMPTY;
        }
        List<Attribute> out = new ArrayList<>();
        long pos = offset;
        long end = offset + length;
        while (end - pos >= NLA_HDRLEN) {
            int nlaLen = Short.toUnsignedInt(segment.get(NLA_LEN, pos + NLA_LEN_OFFSET));
            int rawType = Short.toUnsignedInt(segment.get(NLA_TYPE, pos + NLA_TYPE_OFFSET));
            if (nlaLen < NLA_HDRLEN || nlaLen > end - pos) {
                throw new NetlinkParseException("attribute at byte " + (pos - offset) + " has nla_len " + nlaLen
                        + " but " + (end - pos) + " bytes remain");
            }
            int type = rawType & NLA_TYPE_MASK;
            if (type != 0 || keepTypeZero) {
                byte[] payload = segment.asSlice(pos + NLA_HDRLEN, nlaLen - NLA_HDRLEN).toArray(ValueLayout.JAVA_BYTE);
                out.add(new Attribute(type, rawType & ~NLA_TYPE_MASK, payload));
            }
            pos += NetlinkAbi.nlaAlign(nlaLen);
        }
        return new Attributes(List.copyOf(out));
    }

    /** Parses a whole byte array (a nested attribute's payload). */
    public static Attributes parse(byte[] area) {
        return parse(MemorySegment.ofArray(area), 0, area.length);
    }

    /** All attributes in wire order. */
    public List<Attribute> list() {
        return list;
    }

    public int size() {
        return list.size();
    }

    @Override
    public Iterator<Attribute> iterator() {
        return list.iterator();
    }

    public boolean has(int type) {
        return find(type).isPresent();
    }

    /** The first attribute of this type. */
    public Optional<Attribute> find(int type) {
        for (Attribute a : list) {
            if (a.type() == type) {
                return Optional.of(a);
            }
        }
        return Optional.empty();
    }

    /** Every attribute of this type, in order. */
    public List<Attribute> all(int type) {
        return list.stream().filter(a -> a.type() == type).toList();
    }

    /** The attribute of this type, or a parse error naming it. */
    public Attribute require(int type) {
        return find(type).orElseThrow(() -> new NetlinkParseException("reply lacks attribute " + type));
    }

    public long unsigned(int type) {
        return require(type).unsigned();
    }

    public int unsignedInt(int type) {
        return require(type).unsignedInt();
    }

    public OptionalLong optionalUnsigned(int type) {
        Optional<Attribute> a = find(type);
        return a.isPresent() ? OptionalLong.of(a.get().unsigned()) : OptionalLong.empty();
    }

    /** The value of an optional u8/u16/u32 attribute, or null. */
    public Integer unsignedIntOrNull(int type) {
        return find(type).map(Attribute::unsignedInt).orElse(null);
    }

    /** The value of an optional u64 attribute, or null. */
    public Long unsignedOrNull(int type) {
        return find(type).map(Attribute::unsigned).orElse(null);
    }

    public String string(int type) {
        return require(type).string();
    }

    public Optional<String> optionalString(int type) {
        return find(type).map(Attribute::string);
    }

    public byte[] bytes(int type) {
        return require(type).bytes();
    }

    public Attributes nested(int type) {
        return require(type).nested();
    }

    // ---------------------------------------------------------------- by declared type

    /** The first attribute of this kind, refused when its payload is shorter than the kind allows. */
    public Optional<Attribute> find(NetlinkAttribute kind) {
        return find(kind.number()).map(a -> checked(kind, a));
    }

    public boolean has(NetlinkAttribute kind) {
        return find(kind).isPresent();
    }

    /** The attribute of this kind, or a parse error naming it. */
    public Attribute require(NetlinkAttribute kind) {
        return find(kind).orElseThrow(() -> new NetlinkParseException("reply lacks " + kind.constantName()));
    }

    /** Every attribute of this kind, in order, each checked as {@link #find(NetlinkAttribute)} does. */
    public List<Attribute> all(NetlinkAttribute kind) {
        return all(kind.number()).stream().map(a -> checked(kind, a)).toList();
    }

    /** The attribute, unless it is shorter than its kind allows (then a parse error naming the kind). */
    private static Attribute checked(NetlinkAttribute kind, Attribute a) {
        if (a.length() < kind.minLength()) {
            throw new NetlinkParseException(kind.constantName() + " has " + a.length() + " bytes, a "
                    + kind.type().label() + " attribute needs at least " + kind.minLength());
        }
        return a;
    }

    /** An integer attribute's value, read by its declared width. */
    public long unsigned(NetlinkAttribute kind) {
        return require(kind).unsigned(kind.type());
    }

    /** A u8, u16 or u32 attribute's value. */
    public int unsignedInt(NetlinkAttribute kind) {
        return (int) unsigned(narrow(kind));
    }

    public OptionalLong optionalUnsigned(NetlinkAttribute kind) {
        Optional<Attribute> a = find(kind);
        return a.isPresent() ? OptionalLong.of(a.get().unsigned(kind.type())) : OptionalLong.empty();
    }

    /** The value of an optional integer attribute, or null. */
    public Long unsignedOrNull(NetlinkAttribute kind) {
        return find(kind).map(a -> a.unsigned(kind.type())).orElse(null);
    }

    /** The value of an optional u8, u16 or u32 attribute, or null. */
    public Integer unsignedIntOrNull(NetlinkAttribute kind) {
        return find(narrow(kind)).map(a -> (int) a.unsigned(kind.type())).orElse(null);
    }

    public String string(NetlinkAttribute kind) {
        return require(kind).string();
    }

    public Optional<String> optionalString(NetlinkAttribute kind) {
        return find(kind).map(Attribute::string);
    }

    public byte[] bytes(NetlinkAttribute kind) {
        return require(kind).bytes();
    }

    public Attributes nested(NetlinkAttribute kind) {
        return require(kind).nested();
    }

    private static NetlinkAttribute narrow(NetlinkAttribute kind) {
        if (!kind.type().isInteger() || kind.type().width() > Integer.BYTES) {
            throw new IllegalArgumentException(kind.constantName() + " is a " + kind.type().label() + " attribute, not an int");
        }
        return kind;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Attributes a && a.list.equals(list);
    }

    @Override
    public int hashCode() {
        return list.hashCode();
    }

    @Override
    public String toString() {
        return list.toString();
    }
}
