package org.vdpactl.abi.json;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Reads vdpactl's own JSON data (the kernel and device profiles, the mlx5 facts, the fake's state file) into
 * records, lists, maps, enums and scalars, without Jackson's data binding.
 *
 * <p>Why not Jackson here: a command reads these files at every start, and Jackson's data binding builds a
 * deserializer per record type first (its annotation introspection, hundreds of classes, reflection over every
 * member), which was most of what {@code vdpactl --backend fake dev list} loaded beyond the kernel's command
 * (docs/benchmarks.md, part classes). Jackson still writes the state and every JSON a command prints.
 *
 * <p>It reads strictly, as the state file's reader was configured: a key given twice in one object, text after
 * the document, a fraction or an exponent for an integer, a string for a number or a number for a string, a key
 * the record has not and invalid UTF-8 are refused with the problem's path, line and column
 * ({@link JsonReadException}). A key left out is null (0 or false for a primitive), as Jackson reads records.
 * Records are built through their canonical constructor, so their compact constructors still check and default.
 */
public final class RecordJson {
    /** Every record type's components and canonical constructor, found once. */
    private static final Map<Class<?>, RecordShape> SHAPES = new ConcurrentHashMap<>();
    /** RFC 8259's number. */
    private static final Pattern NUMBER = Pattern.compile("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?");

    private final String text;
    private int pos;

    private RecordJson(String text) {
        this.text = text;
    }

    /** The JSON document {@code json} (UTF-8) as a {@code type}; JSON null is null. */
    public static <T> T read(byte[] json, Class<T> type) {
        return type.cast(box(type).cast(read(json, (Type) type)));
    }

    /** The JSON document {@code json} (UTF-8) as a list of {@code element}s; JSON null is null. */
    @SuppressWarnings("unchecked")
    public static <E> List<E> readList(byte[] json, Class<E> element) {
        return (List<E>) read(json, listOf(element));
    }

    /**
     * The document as plain values: {@link LinkedHashMap}s for objects, {@link ArrayList}s for arrays, String,
     * Long (BigInteger when out of a long's range), Double, Boolean, null.
     */
    public static Object tree(byte[] json) {
        return read(json, Object.class);
    }

    /** A value of {@link #tree}'s kinds as a {@code type}, refused as {@link #read} would refuse its text. */
    public static <T> T bind(Object tree, Class<T> type) {
        return read(JsonText.of(tree).getBytes(StandardCharsets.UTF_8), type);
    }

    private static Object read(byte[] json, Type type) {
        RecordJson r = new RecordJson(utf8(json));
        Object value = r.value(type, "");
        r.skipSpace();
        if (r.pos < r.text.length()) {
            throw r.problem("", "Trailing token (text after the JSON document)");
        }
        return value;
    }

    private static String utf8(byte[] json) {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(json)).toString();
        } catch (CharacterCodingException e) {
            throw new JsonReadException("", "Invalid UTF-8 (" + e.getMessage() + ")", 1, 1);
        }
    }

    private static Type listOf(Class<?> element) {
        return new ParameterizedType() {
            @Override
            public Type[] getActualTypeArguments() {
                return new Type[] {element};
            }

            @Override
            public Type getRawType() {
                return List.class;
            }

            @Override
            public Type getOwnerType() {
                return null;
            }
        };
    }

    // ------------------------------------------------------------------ values of a type

    private Object value(Type type, String path) {
        skipSpace();
        if (at('n')) {
            literal("null", path);
            return type instanceof Class<?> c && c.isPrimitive() ? primitiveDefault(c) : null;
        }
        if (type instanceof ParameterizedType p) {
            Class<?> raw = (Class<?>) p.getRawType();
            Type[] args = p.getActualTypeArguments();
            if (raw == List.class || raw == java.util.Collection.class) {
                return list(args[0], path);
            }
            if (raw == Map.class && args[0] == String.class) {
                return map(args[1], path);
            }
            if (raw == Set.class) {
                // as Jackson read a set: the array's members in order, a repeated one kept once
                return new LinkedHashSet<>(list(args[0], path));
            }
            throw new IllegalArgumentException("RecordJson cannot read " + type);
        }
        Class<?> c = (Class<?>) type;
        if (c == Object.class) {
            return anyValue(path);
        }
        if (c == String.class) {
            return string(path, "a string");
        }
        if (c == boolean.class || c == Boolean.class) {
            return bool(path);
        }
        if (c == int.class || c == Integer.class) {
            return Math.toIntExact(integer(path, Integer.MIN_VALUE, Integer.MAX_VALUE, "an int"));
        }
        if (c == long.class || c == Long.class) {
            return integer(path, Long.MIN_VALUE, Long.MAX_VALUE, "a long");
        }
        if (c == double.class || c == Double.class) {
            return number(path, "a number").doubleValue();
        }
        if (c.isEnum()) {
            return enumConstant(c, path);
        }
        if (c.isRecord()) {
            return record(c, path);
        }
        throw new IllegalArgumentException("RecordJson cannot read " + c.getName());
    }

    private static Object primitiveDefault(Class<?> c) {
        if (c == boolean.class) {
            return false;
        }
        if (c == long.class) {
            return 0L;
        }
        if (c == double.class) {
            return 0.0;
        }
        return 0;
    }

    private static Class<?> box(Class<?> c) {
        if (!c.isPrimitive()) {
            return c;
        }
        return c == int.class ? Integer.class : c == long.class ? Long.class : c == boolean.class ? Boolean.class : Double.class;
    }

    private List<Object> list(Type element, String path) {
        expect('[', path, "an array");
        List<Object> out = new ArrayList<>();
        skipSpace();
        if (at(']')) {
            pos++;
            return out;
        }
        while (true) {
            out.add(value(element, path + "[" + out.size() + "]"));
            if (!nextInContainer(']', path)) {
                return out;
            }
        }
    }

    private Map<String, Object> map(Type valueType, String path) {
        Map<String, Object> out = new LinkedHashMap<>();
        Set<String> seen = new HashSet<>();
        for (String key = firstKey(path, seen); key != null; key = nextKey('}', path, seen)) {
            out.put(key, value(valueType, join(path, key)));
        }
        return out;
    }

    private Object record(Class<?> type, String path) {
        RecordShape shape = RecordShape.of(type);
        Object[] args = new Object[shape.components.length];
        boolean[] given = new boolean[args.length];
        int start = pos;
        Set<String> seen = new HashSet<>();
        for (String key = firstKey(path, seen); key != null; key = nextKey('}', path, seen)) {
            Integer i = shape.index.get(key);
            if (i == null) {
                throw problemBefore(join(path, key), "Unrecognized field \"" + key + "\" (" + type.getSimpleName() + " has "
                        + shape.index.keySet() + ")", key);
            }
            args[i] = value(shape.components[i].getGenericType(), join(path, key));
            given[i] = true;
        }
        for (int i = 0; i < args.length; i++) {
            Class<?> t = shape.components[i].getType();
            if (!given[i] && t.isPrimitive()) {
                args[i] = primitiveDefault(t);
            }
        }
        try {
            return shape.constructor.newInstance(args);
        } catch (InvocationTargetException e) {
            Throwable why = e.getCause();
            int end = pos;
            pos = start;
            JsonReadException p = problem(path, "Cannot construct " + type.getSimpleName() + ": " + why.getMessage());
            pos = end;
            p.initCause(why);
            throw p;
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot construct " + type.getName(), e);
        }
    }

    private static String join(String path, String key) {
        return path.isEmpty() ? key : path + "." + key;
    }

    /** At an object's '{': its first key (the reader then stands before its value), or null for {}. */
    private String firstKey(String path, Set<String> seen) {
        expect('{', path, "an object");
        skipSpace();
        if (at('}')) {
            pos++;
            return null;
        }
        return key(path, seen);
    }

    /** After a member's value: the next key, or null at the object's end. */
    private String nextKey(char close, String path, Set<String> seen) {
        return nextInContainer(close, path) ? key(path, seen) : null;
    }

    private String key(String path, Set<String> seen) {
        skipSpace();
        if (!at('"')) {
            throw problem(path, "Expected a field name (in double quotes)" + found());
        }
        String key = string(path, "a field name");
        if (!seen.add(key)) {
            throw problemBefore(join(path, key), "Duplicate field '" + key + "'", key);
        }
        expect(':', join(path, key), "':'");
        return key;
    }

    /** After a member: true at a comma (another follows), false at {@code close}. */
    private boolean nextInContainer(char close, String path) {
        skipSpace();
        if (at(',')) {
            pos++;
            return true;
        }
        if (at(close)) {
            pos++;
            return false;
        }
        throw problem(path, "Expected ',' or '" + close + "'" + found());
    }

    private Object anyValue(String path) {
        skipSpace();
        if (at('{')) {
            return map(Object.class, path);
        }
        if (at('[')) {
            return list(Object.class, path);
        }
        if (at('"')) {
            return string(path, "a string");
        }
        if (at('t') || at('f')) {
            return bool(path);
        }
        Number n = number(path, "a value");
        if (n instanceof Double) {
            return n;
        }
        BigInteger big = (BigInteger) n;
        return big.bitLength() < 64 ? (Object) big.longValue() : big;
    }

    private Object enumConstant(Class<?> type, String path) {
        String name = string(path, "a name of " + type.getSimpleName());
        for (Object constant : type.getEnumConstants()) {
            if (((Enum<?>) constant).name().equals(name)) {
                return constant;
            }
        }
        throw problemBefore(path, "\"" + name + "\" is not one of the names of " + type.getSimpleName(), name);
    }

    // ------------------------------------------------------------------ tokens

    private boolean bool(String path) {
        skipSpace();
        if (at('t')) {
            literal("true", path);
            return true;
        }
        if (at('f')) {
            literal("false", path);
            return false;
        }
        throw problem(path, "Expected a boolean (true or false)" + found());
    }

    private long integer(String path, long min, long max, String what) {
        int start = pos;
        Number n = number(path, what);
        if (n instanceof Double) {
            pos = start;
            throw problem(path, "Expected " + what + ", not the fraction or exponent " + text.substring(start, endOfNumber(start)));
        }
        BigInteger big = (BigInteger) n;
        if (big.compareTo(BigInteger.valueOf(min)) < 0 || big.compareTo(BigInteger.valueOf(max)) > 0) {
            pos = start;
            throw problem(path, "Numeric value " + big + " out of range of " + what);
        }
        return big.longValue();
    }

    /** A JSON number: a BigInteger when it has neither fraction nor exponent, else a Double. */
    private Number number(String path, String what) {
        skipSpace();
        int start = pos;
        if (!at('-') && !(pos < text.length() && isDigit(text.charAt(pos)))) {
            throw problem(path, "Expected " + what + found());
        }
        int end = endOfNumber(start);
        String n = text.substring(start, end);
        if (!NUMBER.matcher(n).matches()) {
            throw problem(path, "Malformed number " + n);
        }
        pos = end;
        return n.indexOf('.') < 0 && n.indexOf('e') < 0 && n.indexOf('E') < 0 ? new BigInteger(n) : (Number) Double.parseDouble(n);
    }

    private int endOfNumber(int start) {
        int end = start;
        while (end < text.length() && "+-0123456789.eE".indexOf(text.charAt(end)) >= 0) {
            end++;
        }
        return end;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private String string(String path, String what) {
        skipSpace();
        if (!at('"')) {
            throw problem(path, "Expected " + what + found());
        }
        int start = pos++;
        StringBuilder b = new StringBuilder();
        while (true) {
            if (pos >= text.length()) {
                pos = start;
                throw problem(path, "Unexpected end of input in a string");
            }
            char c = text.charAt(pos++);
            if (c == '"') {
                return b.toString();
            }
            if (c < 0x20) {
                pos--;
                throw problem(path, "Illegal unquoted character (code " + (int) c + ") in a string");
            }
            if (c != '\\') {
                b.append(c);
                continue;
            }
            char e = pos < text.length() ? text.charAt(pos++) : '\0';
            switch (e) {
                case '"', '\\', '/' -> b.append(e);
                case 'b' -> b.append('\b');
                case 'f' -> b.append('\f');
                case 'n' -> b.append('\n');
                case 'r' -> b.append('\r');
                case 't' -> b.append('\t');
                case 'u' -> {
                    if (pos + 4 > text.length() || !text.substring(pos, pos + 4).matches("[0-9a-fA-F]{4}")) {
                        throw problem(path, "Bad \\u escape");
                    }
                    b.append((char) Integer.parseInt(text.substring(pos, pos + 4), 16));
                    pos += 4;
                }
                default -> {
                    pos--;
                    throw problem(path, "Unrecognized character escape '\\" + e + "'");
                }
            }
        }
    }

    private void literal(String word, String path) {
        if (!text.startsWith(word, pos)) {
            throw problem(path, "Unrecognized token" + found());
        }
        pos += word.length();
    }

    private void expect(char c, String path, String what) {
        skipSpace();
        if (!at(c)) {
            throw problem(path, "Expected " + what + found());
        }
        pos++;
    }

    private boolean at(char c) {
        return pos < text.length() && text.charAt(pos) == c;
    }

    private String found() {
        if (pos >= text.length()) {
            return ", found the end of the input";
        }
        int end = Math.min(text.length(), pos + 12);
        return ", found '" + text.substring(pos, end).replaceAll("\\s+", " ") + (end < text.length() ? "...'" : "'");
    }

    private void skipSpace() {
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
                return;
            }
            pos++;
        }
    }

    // ------------------------------------------------------------------ problems

    private JsonReadException problem(String path, String what) {
        int line = 1;
        int lineStart = 0;
        for (int i = 0; i < pos && i < text.length(); i++) {
            if (text.charAt(i) == '\n') {
                line++;
                lineStart = i + 1;
            }
        }
        return new JsonReadException(path, what, line, pos - lineStart + 1);
    }

    /** A problem with the key or name just read ({@code word}): located at its opening quote. */
    private JsonReadException problemBefore(String path, String what, String word) {
        int end = pos;
        pos = Math.max(0, text.lastIndexOf('"' + word, pos));
        JsonReadException p = problem(path, what);
        pos = end;
        return p;
    }

    /** A record type's components, their indexes by name, and its canonical constructor. */
    private record RecordShape(RecordComponent[] components, Map<String, Integer> index, Constructor<?> constructor) {
        static RecordShape of(Class<?> type) {
            RecordShape known = SHAPES.get(type);
            if (known == null) {
                known = find(type);
                SHAPES.put(type, known);
            }
            return known;
        }

        private static RecordShape find(Class<?> type) {
            RecordComponent[] components = type.getRecordComponents();
            Class<?>[] types = new Class<?>[components.length];
            Map<String, Integer> index = new HashMap<>();
            for (int i = 0; i < components.length; i++) {
                types[i] = components[i].getType();
                index.put(components[i].getName(), i);
            }
            try {
                Constructor<?> c = type.getDeclaredConstructor(types);
                c.setAccessible(true);
                return new RecordShape(components, index, c);
            } catch (NoSuchMethodException e) {
                throw new IllegalStateException("record without a canonical constructor: " + type.getName(), e);
            }
        }
    }
}
