package org.vdpactl.report.fleet;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Map;
import org.vdpactl.report.BackendFields;

/**
 * What the fleet report keeps of one host's {@code vdpactl rehearse --json} document.
 *
 * @param host        the host's name: the document's {@code host} field (the Ansible module adds it), else the file name
 * @param file        the file it was read from
 * @param outcome     "completed" or "partial"
 * @param simulated   true when the host's figures come from the fake kernel's models
 * @param backend     the host's backend, as the rehearsal document's fields
 * @param strategy    serial, parallel or pipelined
 * @param iterations  windows rehearsed
 * @param devices     source devices rehearsed
 * @param downtimeMs  the median downtime over the host's completed iterations; null when none completed
 * @param phasesMs    per phase id (in plan order) the median over the host's completed iterations
 * @param failure     one line naming the failing call (null when completed)
 */
public record HostRehearsal(String host, String file, String outcome, boolean simulated, BackendFields backend, String strategy,
        int iterations, int devices, Double downtimeMs, Map<String, Double> phasesMs, String failure) {

    @JsonIgnore
    public boolean partial() {
        return !"completed".equals(outcome);
    }

    /** The phase this host spent longest in (its id), or null. */
    @JsonProperty
    public String slowestPhase() {
        return phasesMs.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey).orElse(null);
    }
}
