package org.vdpactl.fake.vfs;

import java.lang.foreign.MemorySegment;
import org.vdpactl.fake.FakeProcess;
import org.vdpactl.sys.FileStat;

/**
 * /dev/null (char 1:3, crw-rw-rw-): reads end at once, writes vanish, and every ioctl is ENOTTY
 * (mem's null device has no ioctl op), so pointing a vhost tool at it fails as on a host.
 */
public final class DevNullFile implements FakeFile {
    public static final String PATH = "/dev/null";
    public static final FileStat STAT = new FileStat(FileStat.Type.CHAR_DEVICE, 0666, 0, 0, 1, 3);

    @Override
    public String kind() {
        return "/dev/null";
    }

    @Override
    public long read(FakeProcess caller, OpenFile file, MemorySegment buf) {
        return 0;
    }

    @Override
    public long write(FakeProcess caller, OpenFile file, MemorySegment buf) {
        return buf.byteSize();
    }

    @Override
    public FileStat stat() {
        return STAT;
    }
}
