package org.vdpactl.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The one escaping routine both HTML reports (rehearsal and fleet) use. */
class HtmlTest {
    @Test
    void escapesMarkupQuotesAndControlCharacters() {
        assertEquals("&lt;a&amp;b&quot;c&#39;&gt; x\ny", Html.esc("<a&b\"c'>\u0001x\ny"));
        assertEquals("", Html.esc(null));
    }

    @Test
    void numbersHaveOneDecimalWhateverTheLocale() {
        assertEquals("1234.6", Html.num(1234.56));
    }
}
