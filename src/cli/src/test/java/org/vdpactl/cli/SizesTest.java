package org.vdpactl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class SizesTest {
    @ParameterizedTest
    @CsvSource({"4096,4096", "4K,4096", "4k,4096", "2M,2097152", "1G,1073741824", "256G,274877906944", "1T,1099511627776",
        "1GiB,1073741824", "2MB,2097152"})
    void parsesBinaryUnits(String text, long expected) {
        assertEquals(expected, Sizes.parse(text, "--memory"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "G", "-1G", "0", "1.5G", "12Q", "abc", "99999999999999999999", "16777216T"})
    void rejectsWhatIsNotAPositiveSize(String text) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Sizes.parse(text, "--memory"));
        assertTrue(e.getMessage().startsWith("--memory: "), e.getMessage());
    }

    @ParameterizedTest
    @CsvSource({"274877906944,256 GiB", "4096,4 KiB", "1610612736,1536 MiB", "1000,1000 B"})
    void formatsExactUnits(long bytes, String expected) {
        assertEquals(expected, Sizes.format(bytes));
    }
}
