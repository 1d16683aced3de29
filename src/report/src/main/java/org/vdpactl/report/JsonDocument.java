package org.vdpactl.report;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import com.fasterxml.jackson.databind.ser.std.ToStringSerializer;
import java.io.IOException;
import java.time.Duration;

/**
 * The JSON documents vdpactl defines itself (the vdpa-family commands print iproute2's shapes instead,
 * docs/json-compat.md). Each one starts with {@code "schema": NAME, "schema_version": VERSION}, uses
 * snake_case keys without spaces, and is described by the JSON Schema {@link #resource()} shipped in
 * the jar (docs/json-schemas.md says what may change within a version).
 */
public enum JsonDocument {
    /** {@code rehearse --json}. */
    REHEARSAL("rehearsal"),
    /** {@code rehearse --compare --json}. */
    COMPARE("compare"),
    /** {@code bench orchestration --json}. */
    BENCH("bench"),
    /** {@code doctor --json}. */
    DOCTOR("doctor"),
    /** {@code vhost info --json}. */
    VHOST_INFO("vhost-info"),
    /** {@code vhost suspend|resume --json}. */
    VHOST_TIMING("vhost-timing"),
    /** {@code report merge --json}. */
    FLEET("fleet"),
    /** {@code migrate facts --json}. */
    MIGRATE_FACTS("migrate-facts"),
    /** {@code migrate check --json}. */
    MIGRATE_CHECK("migrate-check"),
    /** What any command prints on stdout with --json when it fails before printing data. */
    ERROR("error");

    /**
     * The version of every document's key set. Within one version keys are only added (optional);
     * removing, renaming or retyping a key makes the next version.
     */
    public static final int VERSION = 1;

    private final String name;

    JsonDocument(String name) {
        this.name = name;
    }

    /** The value of the document's {@code schema} key: "vdpactl.rehearsal", ... */
    public String schemaName() {
        return "vdpactl." + name;
    }

    /** The class-path resource of the document's JSON Schema (draft 2020-12). */
    public String resource() {
        return "org/vdpactl/schemas/" + name + ".schema.json";
    }

    /** The file name of the schema, as the Ansible collection ships a copy of it. */
    public String fileName() {
        return name + ".schema.json";
    }

    /**
     * The mapper of every document: record components become snake_case keys ({@code queuePairs} prints as
     * {@code queue_pairs}), the one key convention of vdpactl's documents; map keys (device names) are data
     * and stay as given. Durations print as ISO-8601 ("PT2S"): unambiguous units, no extra module needed. A figure
     * that does not exist (NaN) prints as null, not as the string "NaN" that would make a number field a string.
     */
    public static ObjectMapper mapper() {
        return new ObjectMapper().findAndRegisterModules().setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
                .registerModule(new SimpleModule("durations").addSerializer(Duration.class, ToStringSerializer.instance)
                        .addSerializer(Double.class, NAN_AS_NULL).addSerializer(double.class, NAN_AS_NULL));
    }

    private static final JsonSerializer<Double> NAN_AS_NULL = new StdSerializer<>(Double.class) {
        @Override
        public void serialize(Double value, JsonGenerator gen, SerializerProvider provider) throws IOException {
            if (value.isNaN() || value.isInfinite()) {
                gen.writeNull();
            } else {
                gen.writeNumber(value);
            }
        }
    };

    /** The document: {@code {"schema": ..., "schema_version": ...}} followed by the fields of {@code body} (a record or map). */
    public ObjectNode of(Object body) {
        ObjectMapper m = mapper();
        JsonNode fields = m.valueToTree(body);
        if (!(fields instanceof ObjectNode object)) {
            throw new IllegalArgumentException(this + ": a document's body must be a JSON object, not " + fields.getNodeType());
        }
        ObjectNode doc = m.createObjectNode();
        doc.put("schema", schemaName());
        doc.put("schema_version", VERSION);
        doc.setAll(object);
        return doc;
    }
}
