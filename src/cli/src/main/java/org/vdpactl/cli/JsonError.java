package org.vdpactl.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.util.List;
import java.util.OptionalInt;
import org.vdpactl.sys.Errno;
import org.vdpactl.sys.VdpactlException;
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
        print(out, code, message, null);
    }

    /**
     * The error document; when a kernel's answer is behind the failure ({@code cause}'s chain has a
     * {@link VdpactlException#kernelErrno()}), its errno as number and name too, so that a program branches on
     * EBUSY without parsing the sentence (optional keys: schema version 1 documents without them stay valid).
     */
    static void print(PrintWriter out, ExitCode code, String message, Throwable cause) {
        ObjectNode body = new ObjectMapper().createObjectNode();
        ObjectNode error = body.putObject("error");
        error.put("exit", code.code());
        error.put("name", code.name());
        error.put("message", message);
        OptionalInt errno = kernelErrno(cause);
        if (errno.isPresent()) {
            error.put("errno", errno.getAsInt());
            error.put("errno_name", Errno.name(errno.getAsInt()));
        }
        out.println(JsonDocument.ERROR.of(body).toString());
        out.flush();
    }

    /** The errno of the first failure in {@code cause}'s chain that carries one. */
    static OptionalInt kernelErrno(Throwable cause) {
        for (Throwable c = cause; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof VdpactlException v && v.kernelErrno().isPresent()) {
                return v.kernelErrno();
            }
        }
        return OptionalInt.empty();
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
