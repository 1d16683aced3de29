package org.vdpactl.fake.vhost;

import org.vdpactl.fake.vfs.EventFdFile;

/** The vhost side of one virtqueue (struct vhost_virtqueue), reset at every open. */
final class VhostVq {
    int num = 1;
    long desc;
    long avail;
    long used;
    long logAddr;
    boolean logUsed;
    int lastAvailIdx;
    int lastUsedIdx;
    int busyloopTimeout;
    EventFdFile kick;
    Runnable kickListener;
    EventFdFile call;
    EventFdFile err;

    /** Drops the kick subscription (unbind, release). */
    void stopKick() {
        if (kick != null && kickListener != null) {
            kick.removeListener(kickListener);
        }
        kick = null;
        kickListener = null;
    }
}
