package org.vdpactl.lane;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The lane guest's clock is fine enough for the side-by-side downtime figures: it records the
 * clocksource and the measured step of the guest's clocks (GuestClock) into guest-clock.json next to
 * the lane's other records (scripts/lane-report puts it into the lane record) and fails when the step
 * is coarser than {@link GuestClock#FINE_ENOUGH_US}, as it was while the guest ran on the jiffies
 * clock (4 ms steps). scripts/vm-run's kernel command line picks the clocksource.
 */
@Tag("kernel")
class GuestClockKernelTest {

    @BeforeAll
    static void onlyInTheVm() {
        LaneOnly.requireVm();
    }

    @Test
    void theGuestClockAdvancesInStepsFinerThanTheLimit() throws Exception {
        Map<String, Object> clock = GuestClock.measure();
        Path out = Path.of(System.getenv().getOrDefault("VDPACTL_QEMU_TRACE_OUT", "target/qemu-trace.json"))
                .toAbsolutePath().resolveSibling("guest-clock.json");
        Files.createDirectories(out.getParent());
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(out.toFile(), clock);
        assertTrue((Boolean) clock.get("fineEnough"), "the guest clock advances in " + clock.get("resolutionUs")
                + " us steps (limit " + GuestClock.FINE_ENOUGH_US + " us) on clocksource " + clock.get("clocksource")
                + " (available: " + clock.get("availableClocksources") + "; kernel command line: "
                + clock.get("kernelCommandLine") + ")");
    }
}
