package org.vdpactl.sys;

/**
 * The Linux system call numbers of the calls {@link PanamaSyscalls} makes through libc's {@code syscall(2)}, for
 * the two architectures vdpactl runs on (docs/spec/kernel-abi.md, "System call numbers"): x86_64's from
 * arch/x86/entry/syscalls/syscall_64.tbl, arm64's from include/uapi/asm-generic/unistd.h. arm64 has no
 * {@code poll}, so both take {@code ppoll}. The numbers are the kernel's ABI: they never change once released.
 */
record SyscallNumbers(String arch, long close, long socket, long bind, long getsockname, long setsockopt, long sendto,
        long recvfrom, long ppoll) {

    static final SyscallNumbers X86_64 = new SyscallNumbers("x86_64", 3, 41, 49, 51, 54, 44, 45, 271);
    static final SyscallNumbers ARM64 = new SyscallNumbers("arm64", 57, 198, 200, 204, 208, 206, 207, 73);

    /**
     * The table of the JVM's architecture ({@code os.arch}: "amd64" on x86_64, "aarch64" on arm64).
     *
     * @throws UnsupportedOperationException on any other architecture, naming it
     */
    static SyscallNumbers of(String osArch) {
        return switch (osArch) {
            case "amd64", "x86_64" -> X86_64;
            case "aarch64" -> ARM64;
            default -> throw new UnsupportedOperationException("vdpactl's kernel backend runs on x86_64 and arm64, not on " + osArch);
        };
    }
}
