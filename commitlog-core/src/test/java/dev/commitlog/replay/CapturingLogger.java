package dev.commitlog.replay;

import java.util.ArrayList;
import java.util.List;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.LegacyAbstractLogger;
import org.slf4j.helpers.MessageFormatter;

/** An SLF4J logger that keeps each formatted INFO-and-above line, for tests of what the engine logs. */
final class CapturingLogger extends LegacyAbstractLogger {
    private static final long serialVersionUID = 1L;

    final List<String> lines = new ArrayList<>();

    CapturingLogger() {
        this.name = "capturing";
    }

    @Override
    protected void handleNormalizedLoggingCall(Level level, Marker marker, String pattern, Object[] arguments, Throwable throwable) {
        lines.add(level + " " + MessageFormatter.basicArrayFormat(pattern, arguments));
    }

    @Override
    protected String getFullyQualifiedCallerName() {
        return null;
    }

    @Override
    public boolean isTraceEnabled() {
        return false;
    }

    @Override
    public boolean isDebugEnabled() {
        return false;
    }

    @Override
    public boolean isInfoEnabled() {
        return true;
    }

    @Override
    public boolean isWarnEnabled() {
        return true;
    }

    @Override
    public boolean isErrorEnabled() {
        return true;
    }
}
