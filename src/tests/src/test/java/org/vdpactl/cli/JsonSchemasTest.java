package org.vdpactl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.vdpactl.mgmt.IprouteJson;
import org.vdpactl.mgmt.VendorStats;
import org.vdpactl.report.JsonDocument;

/**
 * Every JSON document kind has a shipped schema (docs/json-schemas.md), and a real command's output of
 * each kind passes it ({@link CliRun} validates every --json run; this test makes sure each kind is run
 * at least once). The schemas are strict enough to catch what the key convention forbids.
 */
class JsonSchemasTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The vdpa-family documents keep iproute2's shape (docs/json-compat.md): their own schemas, no schema keys. */
    static final List<String> IPROUTE_SCHEMAS = List.of("iproute-mgmtdev.schema.json", "iproute-dev.schema.json",
            "iproute-config.schema.json", "iproute-vstats.schema.json");

    @TempDir
    static Path dir;
    static Path state;
    /** Schema file -> the documents of that kind printed by the commands of {@link #runOneCommandOfEveryKind()}. */
    static final Map<String, List<JsonNode>> SAMPLES = new TreeMap<>();

    @BeforeAll
    static void runOneCommandOfEveryKind() throws IOException {
        state = dir.resolve("state.json");
        Path rehearsal = dir.resolve("host-a.json");
        Files.writeString(rehearsal, sample("--fake-clock", "virtual", "rehearse", "--devices", "2", "--queue-pairs", "1",
                "--memory", "1G").out());
        sample("--fake-clock", "virtual", "--fake-kernel", "6.1", "rehearse", "vdpa0", "--queue-pairs", "1", "--memory", "1G");
        sample("--fake-clock", "virtual", "rehearse", "--compare", "mlx5-pre612,mlx5-612", "--devices", "1", "--memory", "1G");
        sample("bench", "orchestration", "--sizes", "1", "--queue-pairs", "1", "--memory", "1G", "--repeat", "1");
        sample("doctor");
        sample("vhost", "info", "vdpa0");
        sample("vhost", "info", "vdpa1");
        sample("vhost", "suspend", "vdpa0");
        sample("vhost", "resume", "vdpa0");
        sample("report", "merge", rehearsal.toString());
        sample("dev", "show", "no-such-device");
        sample("mgmtdev", "list");
        Path facts = dir.resolve("facts.json");
        Files.writeString(facts, sample("migrate", "facts", "--qemu-version", "10.0.13").out());
        sample("migrate", "check", "--source", facts.toString(), "--dest", facts.toString());
        sample("dev", "list");
        sample("dev", "config", "vdpa0");
        // the fake's devices give no vendor statistics before a driver negotiated features: the printer's own output
        JsonNode vstats = IprouteJson.vstats(new VendorStats("vdpa0", 1, 0x300030028L, null, 0,
                List.of(new VendorStats.Stat("received_desc", 7), new VendorStats.Stat("completed_desc", -1))));
        assertEquals(List.of(), CliJsonValidation.validate("iproute-vstats.schema.json", vstats));
        SAMPLES.computeIfAbsent("iproute-vstats.schema.json", k -> new ArrayList<>()).add(vstats);
    }

    private static CliRun sample(String... args) {
        List<String> full = new ArrayList<>(List.of("--backend", "fake", "--fake-state", state.toString(), "--json"));
        full.addAll(List.of(args));
        CliRun r = RehearseCommandTest.run(full.toArray(String[]::new));
        for (JsonNode doc : CliJsonValidation.check(full.toArray(String[]::new), r.out())) {
            SAMPLES.computeIfAbsent(CliJsonValidation.schemaFileOf(doc), k -> new ArrayList<>()).add(doc);
        }
        return r;
    }

    private static List<String> shippedSchemaFiles() throws IOException, URISyntaxException {
        Path folder = Path.of(JsonSchemasTest.class.getClassLoader().getResource(CliJsonValidation.SCHEMA_FOLDER).toURI());
        try (Stream<Path> files = Files.list(folder)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void everyDocumentKindHasASchemaAndEveryShippedSchemaAValidatedSample() throws Exception {
        TreeSet<String> expected = new TreeSet<>(IPROUTE_SCHEMAS);
        for (JsonDocument d : JsonDocument.values()) {
            expected.add(d.fileName());
        }
        assertEquals(List.copyOf(expected), shippedSchemaFiles(), "one schema per document kind, nothing else");
        assertEquals(expected, SAMPLES.keySet(), "a validated sample of every kind");
    }

    @Test
    void everyVdpactlSchemaPinsItsNameAndVersionAndIsDraft202012() throws Exception {
        for (JsonDocument d : JsonDocument.values()) {
            JsonNode schema = JSON.readTree(getClass().getClassLoader().getResource(CliJsonValidation.SCHEMA_FOLDER + d.fileName()));
            assertEquals("https://json-schema.org/draft/2020-12/schema", schema.path("$schema").asText(), d.fileName());
            assertEquals(d.schemaName(), schema.at("/properties/schema/const").asText(), d.fileName());
            assertEquals(JsonDocument.VERSION, schema.at("/properties/schema_version/const").asInt(-1), d.fileName());
            assertTrue(schema.path("required").toString().contains("\"schema_version\""), d.fileName());
            for (JsonNode doc : SAMPLES.get(d.fileName())) {
                List<String> keys = new ArrayList<>();
                doc.fieldNames().forEachRemaining(keys::add);
                assertEquals(List.of("schema", "schema_version"), keys.subList(0, 2), "the schema keys come first: " + doc);
                assertEquals(1, doc.get("schema_version").asInt());
                assertTrue(doc.get("schema_version").isInt(), "an integer, not a string");
            }
        }
    }

    @Test
    void aCamelCaseKeyOrAKeyWithASpaceFailsTheSchema() {
        ObjectNode doc = (ObjectNode) SAMPLES.get("rehearsal.schema.json").getFirst().deepCopy();
        assertEquals(List.of(), CliJsonValidation.validate("rehearsal.schema.json", doc));
        ObjectNode plan = (ObjectNode) doc.get("plan");
        plan.set("queuePairs", plan.remove("queue_pairs"));
        assertFalse(CliJsonValidation.validate("rehearsal.schema.json", doc).isEmpty(), "camelCase key accepted");

        ObjectNode spaced = (ObjectNode) SAMPLES.get("rehearsal.schema.json").getFirst().deepCopy();
        ObjectNode phases = (ObjectNode) spaced.at("/statistics/phases");
        phases.set("save state", phases.remove("save_state"));
        assertFalse(CliJsonValidation.validate("rehearsal.schema.json", spaced).isEmpty(), "phase key with a space accepted");
    }

    @Test
    void theBackendIsFieldsNotASentence() {
        JsonNode doc = SAMPLES.get("rehearsal.schema.json").getFirst();
        assertEquals("fake", doc.at("/backend/kind").asText());
        assertEquals("6.12", doc.at("/backend/kernel_profile").asText());
        assertEquals("mlx5-612", doc.at("/backend/presets/0").asText());
        ObjectNode sentence = doc.deepCopy();
        sentence.put("backend", "fake (Linux 6.12), preset mlx5-612");
        assertFalse(CliJsonValidation.validate("rehearsal.schema.json", sentence).isEmpty());
        JsonNode doctor = SAMPLES.get("doctor.schema.json").getFirst();
        assertEquals("fake", doctor.at("/backend/kind").asText());
    }

    @Test
    void theErrorDocumentHasTheSchemaKeysAndTheExitCode() {
        JsonNode doc = SAMPLES.get("error.schema.json").getFirst();
        assertEquals("vdpactl.error", doc.get("schema").asText());
        assertEquals(ExitCode.NOT_FOUND.code(), doc.at("/error/exit").asInt());
        assertEquals("NOT_FOUND", doc.at("/error/name").asText());
    }
}
