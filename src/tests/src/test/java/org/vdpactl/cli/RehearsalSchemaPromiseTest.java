package org.vdpactl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.vdpactl.RepositoryRoot;

/**
 * Issue 36 item 6: the rehearsal schema is as strong as its consumers (a document `report merge` refuses does not
 * validate) and as open as its promise (a new phase id within version 1 validates; docs/json-schemas.md).
 */
class RehearsalSchemaPromiseTest {
    private static final String SCHEMA = "rehearsal.schema.json";

    private static ObjectNode fixture() throws Exception {
        return (ObjectNode) new ObjectMapper().readTree(RepositoryRoot.find().resolve(AnsibleSchemaCopyTest.FIXTURE).toFile());
    }

    private static List<String> errors(JsonNode doc) {
        return CliJsonValidation.validate(SCHEMA, doc).stream().map(Object::toString).toList();
    }

    @Test
    void everyKeyAConsumerReadsIsRequired() throws Exception {
        assertEquals(List.of(), errors(fixture()));
        for (String key : List.of("plan", "outcome", "statistics", "backend", "iterations", "devices", "simulated", "clock",
                "command", "setup", "notes")) {
            ObjectNode doc = fixture();
            doc.remove(key);
            assertFalse(errors(doc).isEmpty(), "a rehearsal document without \"" + key + "\" validated");
        }
        ObjectNode partial = fixture();
        partial.put("outcome", "partial");
        assertFalse(errors(partial).isEmpty(), "a partial rehearsal without its failure validated");
    }

    @Test
    void aNewPhaseIdValidatesAndAMisspeltOneDoesNot() throws Exception {
        ObjectNode doc = fixture();
        ObjectNode phases = (ObjectNode) doc.at("/statistics/phases");
        phases.set("switchover", phases.elements().next());
        ((ObjectNode) doc.at("/iterations/0/spans/0")).put("phase", "switchover");
        assertEquals(List.of(), errors(doc), "a phase id added within version 1 must validate");
        ((ObjectNode) doc.at("/iterations/0/spans/0")).put("phase", "Save State");
        assertFalse(errors(doc).isEmpty(), "a phase id is still snake_case");
    }
}
