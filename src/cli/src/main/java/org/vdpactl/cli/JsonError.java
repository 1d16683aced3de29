package org.vdpactl.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.util.List;
import org.vdpactl.report.JsonDocument;

/**
 * With --json, a command that fails before printing data prints one JSON document on stdout as
 * well as its stderr line, so that a script parsing stdout gets a document either way:
 * {@code {"schema":"vdpactl.error","schema_version":1,"error":{"exit":5,"name":"NOT_SUPPORTED","message":"..."}}}
 * (README "Exit codes", {@link JsonDocument#ERROR}).
 */
final class JsonError {
    private JsonError() {
    }

    static void print(PrintWriter out, ExitCode code, String message) {
        ObjectNode body = new ObjectMapper().createObjectNode();
        ObjectNode error = body.putObject("error");
        error.put("exit", code.code());
        error.put("name", code.name());
        error.put("message", message);
        out.println(JsonDocument.ERROR.of(body).toString());
        out.flush();
    }

    /**
     * Whether a command line that did not parse asked for JSON: an exact --json or -j, or -j inside a
     * bundle of short flags (-jp), before the end of options.
     */
    static boolean requested(String[] args) {
        for (String a : List.of(args)) {
            if (a.equals("--")) {
                return false;
            }
            if (a.equals("--json") || (a.matches("-[a-zA-Z]+") && a.indexOf('j') > 0)) {
                return true;
            }
        }
        return false;
    }
}
