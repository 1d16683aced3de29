package org.vdpactl.report.fleet;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * What the fleet report keeps of one host's {@code vdpactl rehearse --json} document.
 *
 * @param host        the host's name: the document's {@code host} field (the Ansible module adds it), else the file name
 * @param file        the file it was read from (for messages; the report shows only its name)
 * @param outcome     "completed" or "partial"
 * @param simulated   true when the host's figures come from the fake kernel's models
 * @param setup       what the figures depend on besides the hardware (strategy, window, kernel, backend, preset, clock)
 * @param iterations  windows rehearsed
 * @param devices     source devices rehearsed
 * @param downtimeMs  the median downtime over the host's completed iterations; null when none completed
 * @param phasesMs    per phase id (in plan order) the median over the host's completed iterations
 * @param preparation the phases that were the destination's preparation, not downtime (the reset of a migration window)
 * @param failure     one line naming the failing call (null when completed)
 * @param differs     the setup attributes in which this host differs from most of the merged hosts
 */
public record HostRehearsal(String host, @JsonIgnore String file, String outcome, boolean simulated, HostSetup setup,
        int iterations, int devices, Double downtimeMs, Map<String, Double> phasesMs, List<String> preparation, String failure,
        List<String> differs) {

    @JsonIgnore
    public boolean partial() {
        return !"completed".equals(outcome);
    }

    /** The file's name without its directory: the fleet report is shared, the directory it was merged in is local. */
    @JsonProperty("file")
    public String fileName() {
        return String.valueOf(Path.of(file).getFileName());
    }

    /** The downtime phase this host spent longest in (the preparation is not downtime), or null. */
    @JsonProperty
    public String slowestPhase() {
        return phasesMs.entrySet().stream().filter(e -> !preparation.contains(e.getKey())).max(Map.Entry.comparingByValue())
                .map(Map.Entry::getKey).orElse(null);
    }

    /** This host with the attributes it differs in. */
    HostRehearsal differing(List<String> attributes) {
        return new HostRehearsal(host, file, outcome, simulated, setup, iterations, devices, downtimeMs, phasesMs, preparation,
                failure, List.copyOf(attributes));
    }
}
