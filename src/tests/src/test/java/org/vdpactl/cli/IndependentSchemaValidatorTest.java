package org.vdpactl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.vdpactl.RepositoryRoot;
import org.vdpactl.report.fleet.BadFleetInputException;
import org.vdpactl.report.fleet.RehearsalDocuments;
import org.vdpactl.sys.Errno;
import org.vdpactl.sys.SyscallException;

/**
 * vdpactl's documents checked by a validator that shares nothing with the Java one: Debian's python3-jsonschema
 * (draft 2020-12), the validator the Ansible collection uses on managed hosts. It checks what the schemas promise
 * (docs/json-schemas.md): a document {@code report merge} refuses does not validate, a phase id the schema has
 * never seen does (an open list), and errors, timings and kernel gaps come as fields a program can branch on.
 */
class IndependentSchemaValidatorTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Debian's interpreter, whose jsonschema is the python3-jsonschema package (not one a user installed elsewhere). */
    private static final Path DEBIAN_PYTHON = Path.of("/usr/bin/python3");
    private static final Path SCHEMAS = RepositoryRoot.find().resolve("src/report/src/main/resources/org/vdpactl/schemas");
    private static final String VALIDATE = """
            import json, sys
            from jsonschema import Draft202012Validator
            schema = json.load(open(sys.argv[1], encoding='utf-8'))
            Draft202012Validator.check_schema(schema)
            validator = Draft202012Validator(schema)
            for line in open(sys.argv[2], encoding='utf-8'):
                errors = sorted(validator.iter_errors(json.loads(line)), key=lambda e: list(e.absolute_path))
                print('ok' if not errors else 'invalid: %s at %s' % (errors[0].message[:160].replace('\\n', ' '),
                      '/'.join(str(p) for p in errors[0].absolute_path)))
            """;

    @TempDir
    static Path dir;
    static Path state;
    static ObjectNode rehearsal;

    @BeforeAll
    static void debianJsonschema() throws Exception {
        assumeTrue(Files.isExecutable(DEBIAN_PYTHON), "MISSING TOOL: no " + DEBIAN_PYTHON + " (Debian's python3)");
        Process p = new ProcessBuilder(DEBIAN_PYTHON.toString(), "-I", "-c",
                "import jsonschema; jsonschema.Draft202012Validator").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assumeTrue(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0,
                "MISSING TOOL: python3-jsonschema >= 4 (Debian), the independent draft 2020-12 validator: " + out.strip());
        state = dir.resolve("state.json");
        rehearsal = (ObjectNode) JSON.readTree(run("--fake-clock", "virtual", "rehearse", "--devices", "2", "--queue-pairs", "1",
                "--memory", "1G").out());
    }

    private static CliRun run(String... args) {
        List<String> full = new ArrayList<>(List.of("--backend", "fake", "--fake-state", state.toString(), "--json"));
        full.addAll(List.of(args));
        return RehearseCommandTest.run(full.toArray(String[]::new));
    }

    /** The independent validator's verdict on each document: "ok" or "invalid: WHY at PATH". */
    static List<String> verdicts(String schemaFile, List<JsonNode> docs) throws IOException, InterruptedException {
        Path lines = Files.createTempFile(dir, "docs", ".jsonl");
        StringBuilder sb = new StringBuilder();
        for (JsonNode d : docs) {
            sb.append(JSON.writeValueAsString(d)).append('\n');
        }
        Files.writeString(lines, sb);
        Process p = new ProcessBuilder(DEBIAN_PYTHON.toString(), "-I", "-c", VALIDATE,
                SCHEMAS.resolve(schemaFile).toString(), lines.toString()).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the validator did not finish");
        assertEquals(0, p.exitValue(), "the validator failed: " + out);
        List<String> verdicts = out.lines().toList();
        assertEquals(docs.size(), verdicts.size(), out);
        return verdicts;
    }

    private static String verdict(String schemaFile, JsonNode doc) throws IOException, InterruptedException {
        return verdicts(schemaFile, List.of(doc)).getFirst();
    }

    /** What {@code report merge} says of the document: null when it reads it, else its refusal. */
    private static String mergeRefusal(JsonNode doc) throws IOException {
        Path file = Files.createTempFile(dir, "host", ".json");
        Files.writeString(file, JSON.writeValueAsString(doc));
        try {
            RehearsalDocuments.read(file);
            return null;
        } catch (BadFleetInputException e) {
            return e.getMessage();
        }
    }

    private static ObjectNode mutated(Consumer<ObjectNode> change) {
        ObjectNode copy = rehearsal.deepCopy();
        change.accept(copy);
        return copy;
    }

    @Test
    void everyRehearsalDocumentTheMergeRefusesFailsTheSchema() throws Exception {
        Map<String, ObjectNode> cases = new LinkedHashMap<>();
        cases.put("another schema", mutated(d -> d.put("schema", "vdpactl.bench")));
        cases.put("schema_version 2", mutated(d -> d.put("schema_version", 2)));
        cases.put("schema_version as text", mutated(d -> d.put("schema_version", "1")));
        // JSON Schema reads 1.0 as the integer 1; a merge that refused it refused a valid document
        cases.put("schema_version 1.0", mutated(d -> d.put("schema_version", 1.0)));
        cases.put("no outcome", mutated(d -> d.remove("outcome")));
        cases.put("outcome a number", mutated(d -> d.put("outcome", 1)));
        cases.put("no plan", mutated(d -> d.remove("plan")));
        cases.put("plan a list", mutated(d -> d.putArray("plan")));
        cases.put("no statistics", mutated(d -> d.remove("statistics")));
        cases.put("no downtime", mutated(d -> ((ObjectNode) d.get("statistics")).remove("downtime")));
        cases.put("downtime p50 as text", mutated(d -> ((ObjectNode) d.get("statistics").get("downtime")).put("p50_ms", "41.2")));
        cases.put("downtime p50 null with a count", mutated(d -> ((ObjectNode) d.get("statistics").get("downtime")).putNull("p50_ms")));
        cases.put("a phase's p50 as text", mutated(d -> ((ObjectNode) d.get("statistics").get("phases").get("suspend"))
                .put("p50_ms", "x")));
        cases.put("no backend", mutated(d -> d.remove("backend")));
        cases.put("backend a sentence", mutated(d -> d.put("backend", "fake kernel (Linux 6.12 profile)")));
        cases.put("backend kind a number", mutated(d -> ((ObjectNode) d.get("backend")).put("kind", 3)));
        List<String> names = new ArrayList<>(cases.keySet());
        List<String> verdicts = verdicts("rehearsal.schema.json", new ArrayList<>(cases.values()));
        List<String> disagreements = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            String refusal = mergeRefusal(cases.get(names.get(i)));
            boolean valid = verdicts.get(i).equals("ok");
            if (refusal != null && valid) {
                disagreements.add(names.get(i) + ": the schema accepts what report merge refuses (" + refusal + ")");
            }
            if (refusal == null && !valid && names.get(i).startsWith("schema_version 1.0")) {
                disagreements.add(names.get(i) + ": report merge reads what the schema refuses (" + verdicts.get(i) + ")");
            }
        }
        assertEquals(List.of(), disagreements);
        assertEquals("ok", verdicts.get(names.indexOf("schema_version 1.0")), "1.0 is the integer 1 in JSON Schema");
        assertEquals(null, mergeRefusal(cases.get("schema_version 1.0")));
    }

    @Test
    void aPhaseIdTheSchemaHasNeverSeenValidatesAndMerges() throws Exception {
        ObjectNode doc = mutated(d -> {
            ((ArrayNode) d.get("plan").get("phases")).add("warm_up");
            ((ObjectNode) d.get("statistics").get("phases")).set("warm_up", d.get("statistics").get("downtime").deepCopy());
        });
        assertEquals("ok", verdict("rehearsal.schema.json", doc), "new phase ids come within a version (docs/json-schemas.md)");
        assertEquals(null, mergeRefusal(doc));
        ObjectNode camel = mutated(d -> ((ArrayNode) d.get("plan").get("phases")).add("warmUp"));
        assertFalse(verdict("rehearsal.schema.json", camel).equals("ok"), "a phase id is snake_case");
    }

    @Test
    void theRehearsalsDevicesGiveTheirStatusAsANumberAndNames() throws Exception {
        assertEquals("ok", verdict("rehearsal.schema.json", rehearsal));
        for (JsonNode d : rehearsal.get("devices")) {
            assertTrue(d.get("status_byte").isInt(), d.toString());
            assertEquals(d.get("status_byte").asInt(), Integer.decode(d.get("status").asText().substring(0, 4)), d.toString());
            assertTrue(d.get("status_names").isArray(), d.toString());
        }
    }

    @Test
    void aFailedResumeGivesItsDurationInMsAndItsErrnoAsFields() throws Exception {
        // Linux 6.1 has no VHOST_VDPA_RESUME: the call fails with the kernel's errno
        CliRun r = run("--fake-kernel", "6.1", "vhost", "resume", "vdpa0");
        JsonNode doc = JSON.readTree(r.out());
        assertEquals("ok", verdict("vhost-timing.schema.json", doc));
        JsonNode result = doc.get("results").get(0);
        assertTrue(result.get("duration_ms").isNumber(), result.toString());
        assertTrue(result.get("errno").isInt() && result.get("errno").asInt() > 0, result.toString());
        assertTrue(result.get("errno_name").asText().matches("E[A-Z]+"), result.toString());
        assertTrue(result.get("error").asText().contains(result.get("errno_name").asText()), result.toString());
        JsonNode ok = JSON.readTree(run("vhost", "suspend", "vdpa0").out()).get("results").get(0);
        assertTrue(ok.get("errno").isNull() && ok.get("errno_name").isNull() && ok.get("duration_ms").isNumber(), ok.toString());
    }

    @Test
    void vhostInfoGivesWhatTheKernelLacksAsFields() throws Exception {
        JsonNode doc = JSON.readTree(run("--fake-kernel", "6.1", "vhost", "info", "vdpa0").out());
        assertEquals("ok", verdict("vhost-info.schema.json", doc));
        JsonNode absent = doc.get("kernel").get("absent_calls");
        assertTrue(absent.isArray() && !absent.isEmpty(), doc.get("kernel").toString());
        boolean resume = false;
        for (JsonNode a : absent) {
            resume |= a.get("name").asText().equals("VHOST_VDPA_RESUME") && a.get("kind").asText().equals("ioctl")
                    && a.get("first_kernel").asText().matches("\\d+\\.\\d+");
        }
        assertTrue(resume, absent.toString());
        assertEquals(doc.get("kernel").get("absent").size(), absent.size());
        JsonNode missing = doc.get("kernel").get("missing_backend_features");
        assertEquals(doc.get("kernel").get("costs").size(), missing.size(), doc.get("kernel").toString());
        assertTrue(doc.get("unavailable_calls").isArray(), doc.toString());
        assertEquals(doc.get("unavailable").size(), doc.get("unavailable_calls").size(), doc.toString());
        for (JsonNode u : doc.get("unavailable_calls")) {
            assertTrue(u.get("errno").asInt() > 0 && u.get("errno_name").asText().startsWith("E"), u.toString());
        }
    }

    @Test
    void anErrorTheKernelAnsweredCarriesItsErrnoAsFields() throws Exception {
        StringWriter out = new StringWriter();
        JsonError.print(new PrintWriter(out), ExitCode.KERNEL_ERROR, "open /dev/vhost-vdpa-0: EBUSY",
                new RuntimeException("wrapped", new SyscallException("open /dev/vhost-vdpa-0", Errno.EBUSY)));
        JsonNode doc = JSON.readTree(out.toString());
        assertEquals("ok", verdict("error.schema.json", doc));
        assertEquals(Errno.EBUSY, doc.get("error").get("errno").asInt());
        assertEquals("EBUSY", doc.get("error").get("errno_name").asText());
        StringWriter plain = new StringWriter();
        JsonError.print(new PrintWriter(plain), ExitCode.USAGE, "give exactly one of DEV or --fd N");
        JsonNode usage = JSON.readTree(plain.toString());
        assertEquals("ok", verdict("error.schema.json", usage));
        assertFalse(usage.get("error").has("errno"), usage.toString());
        ObjectNode half = usage.deepCopy();
        ((ObjectNode) half.get("error")).put("errno", 16);
        assertFalse(verdict("error.schema.json", half).equals("ok"), "errno without its name");
    }

    @Test
    void theBenchDocumentSaysWhereItsFiguresComeFrom() throws Exception {
        JsonNode doc = JSON.readTree(run("bench", "orchestration", "--sizes", "1", "--queue-pairs", "1", "--memory", "1G",
                "--repeat", "1").out());
        assertEquals("ok", verdict("bench.schema.json", doc));
        for (String key : List.of("simulated", "backend", "preset", "command")) {
            ObjectNode without = doc.deepCopy();
            without.remove(key);
            assertFalse(verdict("bench.schema.json", without).equals("ok"), "a bench document without " + key);
        }
    }
}
