package org.vdpactl.cli.rehearse;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import org.vdpactl.report.JsonDocument;
import org.vdpactl.sim.PresetComparison;

/**
 * The body of {@code rehearse --compare --json}: the comparison as its text shows it. A held-out row carries no point
 * (its {@code driver_ms} are null, as the text shows none): the committed model's MR-release host share, one of its
 * priors, was derived from the held-out figure itself (docs/mlx5-model-impl.md), so the driver time the rehearsal
 * measured on that model rests on the figure it is to predict. Its bounds over the priors' admitted range
 * ({@code interval}) and the firmware commands it issues (structure, not a fitted time) stay.
 */
public final class CompareJson {
    private CompareJson() {
    }

    public static ObjectNode of(PresetComparison.Result r) {
        ObjectNode body = JsonDocument.mapper().valueToTree(r);
        ArrayNode rows = (ArrayNode) body.get("upstream");
        List<PresetComparison.Row> upstream = r.upstream();
        for (int i = 0; i < upstream.size(); i++) {
            if (upstream.get(i).interval() != null) {
                ObjectNode row = (ObjectNode) rows.get(i);
                ((ObjectNode) row.get("before")).putNull("driver_ms");
                ((ObjectNode) row.get("after")).putNull("driver_ms");
            }
        }
        return body;
    }
}
