package org.vdpactl.cli;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.IntStream;

/**
 * The command line as the bytes the user gave. Device names are bytes to the kernel, but the JVM
 * decodes argv with the locale's charset (sun.jnu.encoding) before main: under LC_ALL=C every byte
 * above 0x7f becomes U+FFFD, so "ñamé" would reach the kernel as "��am��". The original bytes are in
 * /proc/self/cmdline (the last args.length entries are main's arguments): an argument that is valid
 * UTF-8 is taken as those bytes decode, whatever the locale; one that is not is refused (exit 2), as
 * vdpactl sends names to the kernel as UTF-8 and must not alter them.
 */
final class ArgvBytes {
    static final Path CMDLINE = Path.of("/proc/self/cmdline");

    private ArgvBytes() {
    }

    /** {@code args} with each argument as its bytes decode in UTF-8; refuses bytes that are not UTF-8. */
    static String[] recover(String[] args) {
        List<byte[]> raw = lastEntries(args.length);
        if (raw == null || IntStream.range(0, args.length).anyMatch(i -> !agrees(raw.get(i), args[i]))) {
            return args; // no /proc, or its entries are not these arguments: keep what the JVM gave (names are checked later)
        }
        String[] out = new String[args.length];
        for (int i = 0; i < args.length; i++) {
            out[i] = utf8(raw.get(i), i + 1);
        }
        return out;
    }

    /** The last {@code n} NUL-terminated entries of /proc/self/cmdline, or null when they are not main's arguments. */
    private static List<byte[]> lastEntries(int n) {
        byte[] all;
        try {
            all = Files.readAllBytes(CMDLINE);
        } catch (IOException | UnsupportedOperationException e) {
            return null;
        }
        List<byte[]> entries = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < all.length; i++) {
            if (all[i] == 0) {
                entries.add(Arrays.copyOfRange(all, start, i));
                start = i + 1;
            }
        }
        return entries.size() < n ? null : entries.subList(entries.size() - n, entries.size());
    }

    private static String utf8(byte[] bytes, int position) {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new CliFailure(ExitCode.USAGE, "argument " + position + " is not valid UTF-8 (bytes " + HexFormat.ofDelimiter(" ")
                    .formatHex(bytes) + "): vdpactl passes names to the kernel as UTF-8 and does not alter them");
        }
    }

    /**
     * Whether a /proc entry is the argument the JVM decoded: equal once what a decoder may have
     * replaced is left out on both sides (bytes above 0x7f; the characters the JVM put in their place,
     * which are '?' under LC_ALL=C and U+FFFD or the decoded characters in other locales).
     */
    private static boolean agrees(byte[] raw, String arg) {
        StringBuilder a = new StringBuilder();
        for (byte b : raw) {
            if (b > 0 && b != '?') {
                a.append((char) b);
            }
        }
        StringBuilder j = new StringBuilder();
        arg.chars().filter(c -> c < 0x80 && c != '?').forEach(c -> j.append((char) c));
        return a.toString().equals(j.toString());
    }
}
