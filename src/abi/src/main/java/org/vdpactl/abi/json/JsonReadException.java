package org.vdpactl.abi.json;

/**
 * A JSON document {@link RecordJson} refuses: what is wrong, at which member ({@code "devices[0].minor"}; empty
 * for the document itself) and where in the text (line and column, from 1).
 */
public final class JsonReadException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String path;
    private final String problem;
    private final int line;
    private final int column;

    JsonReadException(String path, String problem, int line, int column) {
        super((path.isEmpty() ? "" : "\"" + path + "\": ") + problem + " at line " + line + ", column " + column);
        this.path = path;
        this.problem = problem;
        this.line = line;
        this.column = column;
    }

    /** The member whose value is refused, as {@code "mgmtdevs[1].profile"}; empty for the document. */
    public String path() {
        return path;
    }

    /** What is wrong, without where. */
    public String problem() {
        return problem;
    }

    public int line() {
        return line;
    }

    public int column() {
        return column;
    }
}
