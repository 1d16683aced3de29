package org.vdpactl.sys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** stat(2) through the JDK: node type, permission bits, owner and the device number of this machine's own nodes. */
class PathStatTest {
    @TempDir
    Path dir;

    @Test
    void devNullIsCharacterDeviceOneThreeOwnedByRoot() {
        FileStat st = PathStat.of("/dev/null");
        assertEquals(FileStat.Type.CHAR_DEVICE, st.type());
        assertEquals(1, st.rdevMajor());
        assertEquals(3, st.rdevMinor());
        assertEquals("1:3", st.devNumber());
        assertEquals(0666, st.mode());
        assertEquals(0, st.uid());
    }

    @Test
    void aFileIsRegularWithItsPermissionBitsAndTheCreatorsUidAndNoDeviceNumber() throws IOException {
        Path f = Files.createFile(dir.resolve("f"));
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-r-----"));
        FileStat st = PathStat.of(f.toString());
        assertEquals(FileStat.Type.REGULAR, st.type());
        assertEquals(0640, st.mode());
        assertEquals(EffectiveUid.current().orElseThrow(), st.uid());
        assertEquals("0:0", st.devNumber());
    }

    @Test
    void aSymbolicLinkIsFollowedAndADirectoryIsOne() throws IOException {
        Files.createSymbolicLink(dir.resolve("null"), Path.of("/dev/null"));
        assertEquals("1:3", PathStat.of(dir.resolve("null").toString()).devNumber());
        assertEquals(FileStat.Type.DIRECTORY, PathStat.of(dir.toString()).type());
    }

    @Test
    void failuresCarryTheErrnoOfTheFailedStat() throws IOException {
        Path f = Files.createFile(dir.resolve("f"));
        assertEquals(Errno.ENOENT, assertThrows(SyscallException.class, () -> PathStat.of(dir.resolve("none").toString())).errno());
        // the JDK reports ENOTDIR as NoSuchFileException: documented in PathStat.of
        assertEquals(Errno.ENOENT, assertThrows(SyscallException.class, () -> PathStat.of(f + "/x")).errno());
        Files.createSymbolicLink(dir.resolve("a"), dir.resolve("b"));
        Files.createSymbolicLink(dir.resolve("b"), dir.resolve("a"));
        assertEquals(Errno.ELOOP, assertThrows(SyscallException.class, () -> PathStat.of(dir.resolve("a").toString())).errno());
    }

    @Test
    void largeDeviceNumbersDecodeAsGlibcMakedevEncodesThem() {
        int major = 0x1234;
        int minor = 0x56789;
        // glibc's gnu_dev_makedev
        long rdev = ((major & 0xFFFL) << 8) | ((major & ~0xFFFL) << 32) | (minor & 0xFFL) | ((minor & ~0xFFL) << 12);
        assertEquals(major, PathStat.major(rdev));
        assertEquals(minor, PathStat.minor(rdev));
    }
}
