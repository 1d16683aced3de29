package org.vdpactl.cli;

/**
 * The exit codes of every vdpactl command (the README's table is generated from the same list).
 * Lab automation branches on these, so their numbers never change. A new code takes the next free
 * number below 128 (128 + N is a signal's) and a row in the README's table, in the Ansible
 * collection's EXIT_NAMES (AnsibleExitNamesTest) and a command path in ExitCodeTableTest.
 */
public enum ExitCode {
    OK(0, "success"),
    FAILURE(1, "unexpected internal failure (a bug: run with --verbose and report it)"),
    USAGE(2, "bad command line or input file content, or a command group without its subcommand (nothing was done)"),
    NOT_FOUND(3, "device, management device, or a file or directory named on the command line (input or output) not found"),
    PERMISSION(4, "permission denied (root / CAP_NET_ADMIN / device node or file mode), whichever call met it"),
    NOT_SUPPORTED(5, "the kernel, driver or device does not support the operation"),
    PARTIAL(6, "a batch failed part-way; every device was rolled back or its final state reported"),
    KERNEL_ERROR(7, "the kernel refused the operation (errno shown)"),
    NOT_READY(8, "environment not ready (doctor found blocking problems, state file locked or its file system full or read-only, no backend)"),
    RESOURCE_LIMIT(9, "a resource limit of the process is too low for the job (RLIMIT_NOFILE: the message says what is needed and how to raise it)"),
    /** migrate check: a device pair cannot migrate (docs/migrate.md); not a failure of vdpactl or its input. */
    BLOCKED(10, "migrate check found a blocker: a device pair cannot migrate (each blocker says what to do)"),
    /** 128 + SIGINT, as a shell reports a process that SIGINT ended; SIGTERM ends a command the same way. */
    INTERRUPTED(130, "stopped by SIGINT or SIGTERM at a safe point; every device was brought to a known state and reported");

    private final int code;
    private final String meaning;

    ExitCode(int code, String meaning) {
        this.code = code;
        this.meaning = meaning;
    }

    public int code() {
        return code;
    }

    public String meaning() {
        return meaning;
    }
}
