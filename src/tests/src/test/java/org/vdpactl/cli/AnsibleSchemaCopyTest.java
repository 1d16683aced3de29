package org.vdpactl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The Ansible collection validates vdpactl's output against the same schemas as the jar: it ships them
 * as the generated module_utils/vdpactl_schemas.py (AnsiballZ sends Python modules to the managed host,
 * not data files), whose strings are the schema files byte for byte. Regenerate it after changing a
 * schema: {@code mvn test -Dtest=AnsibleSchemaCopyTest -Dvdpactl.writeAnsibleSchemas=true}.
 */
class AnsibleSchemaCopyTest {
    static final Path COPY = Path.of("ansible/ansible_collections/vdpactl/vdpa/plugins/module_utils/vdpactl_schemas.py");
    static final Path FIXTURE = Path.of("ansible/ansible_collections/vdpactl/vdpa/tests/unit/plugins/modules/fixtures/rehearsal.json");
    /** ansible-test's pep8 limit is 160 columns; a schema line is kept well under it. */
    static final int MAX_LINE = 140;

    static String expectedCopy() throws IOException, URISyntaxException {
        Path folder = Path.of(AnsibleSchemaCopyTest.class.getClassLoader().getResource(CliJsonValidation.SCHEMA_FOLDER).toURI());
        StringBuilder py = new StringBuilder();
        py.append("# -*- coding: utf-8 -*-\n")
                .append("# Copyright: vdpactl project\n")
                .append("# Apache License 2.0 (see LICENSE)\n")
                .append("# GENERATED from src/report/src/main/resources/org/vdpactl/schemas/*.schema.json by AnsibleSchemaCopyTest; do not edit.\n")
                .append("\"\"\"The JSON Schemas of vdpactl's documents (docs/json-schemas.md), as the jar ships them.\"\"\"\n\n")
                .append("from __future__ import (absolute_import, division, print_function)\n")
                .append("__metaclass__ = type\n\n")
                .append("# schema file name -> its text\n")
                .append("SCHEMAS = {\n");
        try (Stream<Path> files = Files.list(folder)) {
            for (Path f : files.sorted().toList()) {
                String text = Files.readString(f, StandardCharsets.UTF_8);
                assertTrue(!text.contains("'''") && !text.endsWith("\\"), f + " cannot be a raw Python string");
                for (String line : text.lines().toList()) {
                    assertTrue(line.length() <= MAX_LINE, f.getFileName() + ": a line longer than " + MAX_LINE + ": " + line);
                }
                py.append("    '").append(f.getFileName()).append("': r'''").append(text).append("''',\n");
            }
        }
        return py.append("}\n").toString();
    }

    @Test
    void theCollectionShipsTheJarsSchemasByteForByte() throws Exception {
        String expected = expectedCopy();
        if (Boolean.getBoolean("vdpactl.writeAnsibleSchemas")) {
            Files.writeString(COPY, expected);
        }
        assertEquals(expected, Files.readString(COPY),
                COPY + " differs from the schemas: mvn test -Dtest=AnsibleSchemaCopyTest -Dvdpactl.writeAnsibleSchemas=true");
        assertEquals(List.of(), expected.lines().filter(l -> l.length() > 160).toList(), "pep8 line length");
    }

    @Test
    void theCollectionsUnitTestFixtureIsAValidRehearsalDocument() throws Exception {
        JsonNode fixture = new ObjectMapper().readTree(FIXTURE.toFile());
        assertEquals(List.of(), CliJsonValidation.validate("rehearsal.schema.json", fixture).stream().map(Object::toString).toList(),
                FIXTURE + ": regenerate it from `vdpactl --backend fake --fake-clock virtual rehearse mlx5-0 --queue-pairs 1 --json`");
    }
}
