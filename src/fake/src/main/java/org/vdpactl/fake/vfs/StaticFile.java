package org.vdpactl.fake.vfs;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

import org.vdpactl.fake.FakeProcess;
import org.vdpactl.sys.FileStat;

/** A read-only file with fixed content (a sysfs or procfs attribute opened with open(2)). */
public final class StaticFile implements FakeFile {
    private final byte[] content;
    private long position;

    public StaticFile(byte[] content) {
        this.content = content;
    }

    @Override
    public String kind() {
        return "sysfs attribute";
    }

    @Override
    public synchronized long read(FakeProcess caller, OpenFile file, MemorySegment buf) {
        int from = (int) Math.min(position, content.length);
        int n = (int) Math.min(buf.byteSize(), content.length - from);
        UserMemory.copyOut(buf, 0, Arrays.copyOfRange(content, from, from + n));
        position += n;
        return n;
    }

    @Override
    public FileStat stat() {
        return new FileStat(FileStat.Type.REGULAR, 0444, 0, 0, 0, 0);
    }
}
