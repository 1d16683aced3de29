package org.vdpactl.cli.log;

import java.io.PrintStream;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.LegacyAbstractLogger;
import org.slf4j.helpers.MessageFormatter;
import org.vdpactl.cli.host.HolderUsers;

/** One "[LEVEL] message" line on standard error (as it is at the call, so a replaced System.err is used). */
final class StderrLogger extends LegacyAbstractLogger {
    private static final long serialVersionUID = 1L;

    StderrLogger(String name) {
        this.name = name;
    }

    @Override
    public boolean isTraceEnabled() {
        return LogThreshold.enabled(Level.TRACE);
    }

    @Override
    public boolean isDebugEnabled() {
        return LogThreshold.enabled(Level.DEBUG);
    }

    @Override
    public boolean isInfoEnabled() {
        return LogThreshold.enabled(Level.INFO);
    }

    @Override
    public boolean isWarnEnabled() {
        return LogThreshold.enabled(Level.WARN);
    }

    @Override
    public boolean isErrorEnabled() {
        return LogThreshold.enabled(Level.ERROR);
    }

    @Override
    protected String getFullyQualifiedCallerName() {
        return null;
    }

    @Override
    protected void handleNormalizedLoggingCall(Level level, Marker marker, String messagePattern, Object[] arguments,
                                               Throwable throwable) {
        // a process the library names ("held by pid N (java)") with the user it runs as (getpwuid), as the CLI's own
        // error lines name it: whom to ask
        String line = "[" + level + "] " + HolderUsers.inText(MessageFormatter.basicArrayFormat(messagePattern, arguments));
        PrintStream err = System.err;
        synchronized (err) {
            err.println(line);
            if (throwable != null) {
                throwable.printStackTrace(err);
            }
            err.flush();
        }
    }
}
