package org.vdpactl.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.PrettyPrinter;
import com.fasterxml.jackson.core.util.Instantiatable;
import java.io.IOException;

/**
 * {@code -p} as iproute2 indents ({@code vdpa -jp}; lib/json_writer.c in pretty mode), so that the two can be
 * compared with diff: an object member on a line of its own, four spaces a level, {@code "key": value}; array
 * elements one after another with a comma and no blank ({@code ["net","block"}), the closing bracket or brace on a
 * line of its own at its level; {@code {}} and {@code []} when empty. Jackson's default differs in each.
 */
final class IprouteJsonIndentation implements PrettyPrinter, Instantiatable<IprouteJsonIndentation> {
    private int depth;

    @Override
    public IprouteJsonIndentation createInstance() {
        return new IprouteJsonIndentation(); // the depth is per document
    }

    /** json_writer's jsonw_eol(): a new line, indented to the depth. */
    private void eol(JsonGenerator g) throws IOException {
        g.writeRaw('\n');
        for (int i = 0; i < depth; i++) {
            g.writeRaw("    ");
        }
    }

    @Override
    public void writeRootValueSeparator(JsonGenerator g) throws IOException {
        g.writeRaw('\n');
    }

    @Override
    public void writeStartObject(JsonGenerator g) throws IOException {
        g.writeRaw('{');
        depth++;
    }

    @Override
    public void beforeObjectEntries(JsonGenerator g) throws IOException {
        eol(g);
    }

    @Override
    public void writeObjectFieldValueSeparator(JsonGenerator g) throws IOException {
        g.writeRaw(": ");
    }

    @Override
    public void writeObjectEntrySeparator(JsonGenerator g) throws IOException {
        g.writeRaw(',');
        eol(g);
    }

    @Override
    public void writeEndObject(JsonGenerator g, int entries) throws IOException {
        depth--;
        if (entries > 0) {
            eol(g);
        }
        g.writeRaw('}');
    }

    @Override
    public void writeStartArray(JsonGenerator g) throws IOException {
        g.writeRaw('[');
        depth++;
    }

    @Override
    public void beforeArrayValues(JsonGenerator g) {
        // json_writer writes an element right after '[' (jsonw_string: no jsonw_eol)
    }

    @Override
    public void writeArrayValueSeparator(JsonGenerator g) throws IOException {
        g.writeRaw(',');
    }

    @Override
    public void writeEndArray(JsonGenerator g, int values) throws IOException {
        depth--;
        if (values > 0) {
            eol(g);
        }
        g.writeRaw(']');
    }
}
