package org.vdpactl.bench.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The files of one benchmark run by name: either scripts/bench's results directory (while the run is
 * going on) or the {@code files} of a committed record (docs/bench-records), so that the report reads
 * both the same way and a record renders exactly as the run that wrote it.
 */
interface ResultFiles {
    /** The names of the files, sorted. */
    List<String> names();

    /** A file's text (a JSON file as JSON text), or empty when there is no such file. */
    Optional<String> text(String name);

    static ResultFiles of(Path dir) {
        return new ResultFiles() {
            @Override
            public List<String> names() {
                if (!Files.isDirectory(dir)) {
                    return List.of();
                }
                try (var s = Files.list(dir)) {
                    return s.filter(Files::isRegularFile).map(p -> p.getFileName().toString()).sorted().toList();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }

            @Override
            public Optional<String> text(String name) {
                Path f = dir.resolve(name);
                try {
                    return Files.isRegularFile(f) ? Optional.of(Files.readString(f, StandardCharsets.UTF_8)) : Optional.empty();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        };
    }

    /** The {@code files} object of a record: text files as strings, JSON files as JSON. */
    static ResultFiles of(JsonNode files) {
        return new ResultFiles() {
            @Override
            public List<String> names() {
                List<String> out = new ArrayList<>();
                files.fieldNames().forEachRemaining(out::add);
                return out.stream().sorted().toList();
            }

            @Override
            public Optional<String> text(String name) {
                JsonNode n = files.get(name);
                return n == null ? Optional.empty() : Optional.of(n.isTextual() ? n.asText() : n.toString());
            }
        };
    }
}
