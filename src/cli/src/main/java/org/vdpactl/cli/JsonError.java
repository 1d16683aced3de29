package org.vdpactl.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.util.List;

/**
 * With --json, a command that fails before printing data prints one JSON document on stdout as
 * well as its stderr line, so that a script parsing stdout gets a document either way:
 * {@code {"error":{"exit":5,"name":"NOT_SUPPORTED","message":"..."}}} (README "Exit codes").
 */
final class JsonError {
    private JsonError() {
    }

    static void print(PrintWriter out, ExitCode code, String message) {
        ObjectNode doc = new ObjectMapper().createObjectNode();
        ObjectNode error = doc.putObject("error");
        error.put("exit", code.code());
        error.put("name", code.name());
        error.put("message", message);
        out.println(doc.toString());
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
