package org.vdpactl.sys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The system call numbers the real backend passes to {@code syscall(2)}. On this machine's architecture every
 * call runs for real ({@link PanamaSyscallsSmokeTest}, the netlink tests), so a wrong number fails there; the
 * other architecture's table is checked here against the kernel's own header where the machine has it
 * (Debian's linux-libc-dev installs both).
 */
class SyscallNumbersTest {
    @Test
    void theJvmsArchitectureNamesPickTheirTables() {
        assertSame(SyscallNumbers.X86_64, SyscallNumbers.of("amd64"));
        assertSame(SyscallNumbers.X86_64, SyscallNumbers.of("x86_64"));
        assertSame(SyscallNumbers.ARM64, SyscallNumbers.of("aarch64"));
    }

    @Test
    void anotherArchitectureIsRefusedByName() {
        UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class, () -> SyscallNumbers.of("riscv64"));
        assertTrue(e.getMessage().contains("riscv64"), e.getMessage());
    }

    @Test
    void arm64sNumbersAreAsmGenericUnistd() throws IOException {
        check(SyscallNumbers.ARM64, Path.of("/usr/include/asm-generic/unistd.h"));
    }

    @Test
    void x86_64sNumbersAreItsUnistd64() throws IOException {
        check(SyscallNumbers.X86_64, Path.of("/usr/include/x86_64-linux-gnu/asm/unistd_64.h"));
    }

    private static void check(SyscallNumbers table, Path header) throws IOException {
        assumeTrue(Files.isRegularFile(header), "SKIPPED: no " + header + " on this machine (Debian's linux-libc-dev)");
        String text = Files.readString(header);
        Map<String, Long> expected = Map.of("close", table.close(), "socket", table.socket(), "bind", table.bind(),
                "getsockname", table.getsockname(), "setsockopt", table.setsockopt(), "sendto", table.sendto(),
                "recvfrom", table.recvfrom(), "ppoll", table.ppoll());
        for (Map.Entry<String, Long> e : expected.entrySet()) {
            Matcher m = Pattern.compile("#define __NR_" + e.getKey() + " (\\d+)\\b").matcher(text);
            assertTrue(m.find(), "__NR_" + e.getKey() + " in " + header);
            assertEquals(e.getValue(), Long.parseLong(m.group(1)), table.arch() + " " + e.getKey());
        }
    }
}
