/**
 * Rendering of rehearsal results: plain-text tables ({@link org.vdpactl.report.RehearsalText}), the
 * JSON document ({@link org.vdpactl.report.RehearsalJson}, Jackson) and the self-contained HTML
 * report with an SVG timeline and histograms ({@link org.vdpactl.report.HtmlReport}). Figures from
 * the fake kernel are labelled "simulated" everywhere ({@link org.vdpactl.report.RunInfo}).
 */
package org.vdpactl.report;
