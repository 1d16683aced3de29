package org.vdpactl.cli.log;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import org.slf4j.ILoggerFactory;
import org.slf4j.IMarkerFactory;
import org.slf4j.Logger;
import org.slf4j.helpers.BasicMarkerFactory;
import org.slf4j.helpers.NOPMDCAdapter;
import org.slf4j.spi.MDCAdapter;
import org.slf4j.spi.SLF4JServiceProvider;

/**
 * The CLI's SLF4J backend: every logger writes to standard error (data goes to standard output) at the
 * level {@link LogThreshold} decides at the time of the call. It replaces slf4j-simple, whose level is
 * read once when SLF4J starts, before the options are parsed.
 */
public final class StderrLoggerProvider implements SLF4JServiceProvider {
    private final ConcurrentMap<String, Logger> loggers = new ConcurrentHashMap<>();
    private final IMarkerFactory markers = new BasicMarkerFactory();
    private final MDCAdapter mdc = new NOPMDCAdapter();
    private final ILoggerFactory factory = name -> loggers.computeIfAbsent(name, StderrLogger::new);

    @Override
    public ILoggerFactory getLoggerFactory() {
        return factory;
    }

    @Override
    public IMarkerFactory getMarkerFactory() {
        return markers;
    }

    @Override
    public MDCAdapter getMDCAdapter() {
        return mdc;
    }

    @Override
    public String getRequestedApiVersion() {
        return "2.0.99";
    }

    @Override
    public void initialize() {
        // nothing to read: the level is decided per call
    }
}
