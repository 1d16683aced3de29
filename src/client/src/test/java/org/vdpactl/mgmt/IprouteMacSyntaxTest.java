package org.vdpactl.mgmt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every row: an argument to {@code vdpa dev add ... mac X}, what iproute2 sends for it (read from
 * vdpa_argv_mac -> ll_addr_a2n and get_addr_ipv4, and confirmed by running those functions against
 * glibc 2.36; docs/spec/iproute2-mac.md), and what vdpactl does. vdpactl sends the same bytes
 * except where the row says DELIBERATE: there iproute2 accepts only because sscanf("%x") stops at
 * the first non-hex character or skips blanks and a sign, and the extra text is a typo.
 */
class IprouteMacSyntaxTest {
    private static final String REFUSED = "refused";
    private static final String DELIBERATE = "deliberate";

    /** input, iproute2's six bytes (or "refused"), vdpactl: "same", "same+warning" or "deliberate", why. */
    static Stream<Arguments> rows() {
        return Stream.of(
                row("02:00:00:00:00:07", "02:00:00:00:00:07", "same", "six groups of two hex digits"),
                row("AB:cd:EF:01:02:03", "ab:cd:ef:01:02:03", "same", "%x reads either case"),
                row("02:00:00:00:00:0", "02:00:00:00:00:00", "same+warning", "a one-digit group is a byte; a digit left out reads as 0X"),
                row("02:00", "02:00:00:00:00:00", "same+warning", "loop ends at the last group; calloc'd opts keep the rest zero"),
                row("2", "02:00:00:00:00:00", "same+warning", "one group"),
                row("002:0x2:0X0a:00ff:0:1", "02:02:0a:ff:00:01", "same+warning", "%x takes leading zeros and a 0x prefix"),
                row("10.0.0.1", "0a:00:00:01:00:00", "same+warning", "a '.' sends it to get_addr_ipv4: four bytes, memcpy of 4"),
                row("10.1", "0a:01:00:00:00:00", "same+warning", "get_addr_ipv4 stops at the end after any part"),
                row("010.1.1.1", "08:01:01:01:00:00", "same+warning", "strtoul base 0: a leading 0 is octal"),
                row("0x0a.1.1.1", "0a:01:01:01:00:00", "same+warning", "strtoul base 0: 0x is hex"),
                row("02::00", REFUSED, "same", "an empty group: sscanf returns EOF, not 1"),
                row("02:00:00:00:00:", REFUSED, "same", "a trailing ':' leaves an empty last group"),
                row(":02", REFUSED, "same", "an empty first group"),
                row("", REFUSED, "same", "sscanf on an empty string returns EOF"),
                row("x2", REFUSED, "same", "no hex digit: no conversion"),
                row("g2", REFUSED, "same", "no hex digit: no conversion"),
                row("02:100", REFUSED, "same", "0x100 > 255"),
                row("-1:1", REFUSED, "same", "%x of -1 stores -1 in the int: temp < 0"),
                row("1.2.3.4.5", REFUSED, "same", "get_addr_ipv4: a fifth part is extra characters"),
                row("1.2.3.4.", REFUSED, "same", "the '.' after the fourth part is extra characters"),
                row("1..2", REFUSED, "same", "an empty part: strtoul reads no digits"),
                row("1.2:3", REFUSED, "same", "a ':' makes get_addr_1 try IPv6, which AF_INET refuses"),
                row("256.1.1.1", REFUSED, "same", "a part > 255"),
                row("08.1.1.1", REFUSED, "same", "octal stops at 8: extra characters"),
                row("1.2.3.-1", REFUSED, "same", "strtoul of -1 is ULONG_MAX > 255"),
                row("02-00-00-00-00-07", "02:00:00:00:00:00", DELIBERATE, "no ':' so one group; %x stops at '-': 02 and zeros"),
                row("02:00:00:00:00:07:08", "02:00:00:00:00:07", DELIBERATE, "the loop stops after six groups: the 7th is dropped"),
                row("02:00:00:00:00:07:zz", "02:00:00:00:00:07", DELIBERATE, "a 7th group is not even read"),
                row("02:07junk", "02:07:00:00:00:00", DELIBERATE, "%x ignores what follows the digits"),
                row("02:0g", "02:00:00:00:00:00", DELIBERATE, "%x reads 0 and ignores the g"),
                row("0x0x2", "00:00:00:00:00:00", DELIBERATE, "%x reads 0x0 and ignores the rest"),
                row("0x", "00:00:00:00:00:00", DELIBERATE, "glibc's %x takes a bare 0x as 0"),
                row(" 2:1", "02:01:00:00:00:00", DELIBERATE, "%x skips leading blanks"),
                row("+2:1", "02:01:00:00:00:00", DELIBERATE, "%x takes a sign"),
                row("-0:1", "00:01:00:00:00:00", DELIBERATE, "%x takes a sign; -0 is 0"),
                row("02:00:00:00:00:07 ", "02:00:00:00:00:07", DELIBERATE, "%x ignores a trailing blank"),
                row(" 1.2.3.4", "01:02:03:04:00:00", DELIBERATE, "strtoul skips leading blanks"));
    }

    private static Arguments row(String input, String iproute2, String vdpactl, String why) {
        return Arguments.of(input, iproute2, vdpactl, why);
    }

    @ParameterizedTest(name = "[{index}] \"{0}\" -> {1} ({2}: {3})")
    @MethodSource("rows")
    void readsEachFormAsIproute2sVdpaDoes(String input, String iproute2, String vdpactl, String why) {
        if (iproute2.equals(REFUSED) || vdpactl.equals(DELIBERATE)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> IprouteMacSyntax.read(input), why);
            assertTrue(e.getMessage().startsWith("not a MAC address: \"" + input + "\": "), e.getMessage());
            return;
        }
        IprouteMacSyntax.Reading r = IprouteMacSyntax.read(input);
        assertEquals(iproute2, r.address().toString(), why);
        if (vdpactl.equals("same+warning")) {
            assertNotNull(r.unusualForm(), "a form that can hide a typo must be named: " + why);
        } else {
            assertNull(r.unusualForm(), "the canonical form needs no warning");
        }
    }
}
