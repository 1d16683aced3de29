package org.vdpactl.fake.state;

import com.fasterxml.jackson.annotation.JsonInclude;
import org.vdpactl.sys.NodeHolders;

/**
 * One open /dev/vhost-vdpa-N, as the state file records it so that another process's open gets
 * EBUSY and its dev_del waits, as they would on one kernel.
 *
 * @param device      vdpa device name
 * @param minor       the node's minor
 * @param pid         the holding process
 * @param startMillis that process's start time (epoch ms), so a reused pid is not taken for the holder; null if unknown
 * @param kernel      the holding fake kernel within that process (two kernels of one JVM are two "processes")
 * @param removing    true once a dev_del has claimed the node for good (the node is gone from /dev)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record NodeOpenRecord(String device, int minor, long pid, Long startMillis, String kernel, boolean removing) {

    /** "pid 123 (java)" for messages: the pid and its program, as the kernel side's /proc scan names a holder. */
    public String holder() {
        return NodeHolders.describe(pid);
    }
}
