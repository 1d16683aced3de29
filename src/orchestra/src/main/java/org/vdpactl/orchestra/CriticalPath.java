package org.vdpactl.orchestra;

import java.util.List;

/**
 * The longest chain of dependent work of one iteration under its strategy: with {@code serial}
 * every phase of every device; with {@code parallel} the slowest device of each phase (the barrier
 * waits for it); with {@code pipelined} the slowest device's own chain.
 *
 * @param nanos    total length
 * @param segments the chain, in order
 */
public record CriticalPath(long nanos, List<Segment> segments) {

    /**
     * One link of the chain.
     *
     * @param device the device doing the work
     * @param phase  its phase
     * @param nanos  the device's time in that phase
     */
    public record Segment(String device, Phase phase, long nanos) {
    }
}
