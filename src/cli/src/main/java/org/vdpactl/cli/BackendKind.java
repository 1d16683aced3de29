package org.vdpactl.cli;

/** Which kernel the CLI talks to. */
public enum BackendKind {
    /** The kernel when it has vDPA (a vdpa bus or a /dev/vhost-vdpa-* node), else the fake. */
    AUTO,
    /** The running kernel through the Panama seam; never falls back. */
    KERNEL,
    /** The fake kernel with its state file; every figure it produces is simulated. */
    FAKE
}
