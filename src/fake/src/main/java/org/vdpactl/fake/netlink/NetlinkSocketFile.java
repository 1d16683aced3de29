package org.vdpactl.fake.netlink;

import java.lang.foreign.MemorySegment;
import org.vdpactl.fake.vfs.FakeFile;
import org.vdpactl.fake.FakeProcess;
import org.vdpactl.fake.vfs.OpenFile;
import org.vdpactl.sys.FileStat;

/**
 * The {@link FakeFile} of a NETLINK_GENERIC socket: the fake kernel's VFS calls land here and go
 * to the {@link FakeNetlinkSocket}, with the calling process as the netlink caller. read(2) and
 * write(2) on the socket behave as recv and send without an address, as on Linux.
 */
final class NetlinkSocketFile implements FakeFile {
    private final FakeNetlinkSocket socket;
    private final FakeNetlink netlink;

    NetlinkSocketFile(FakeNetlinkSocket socket, FakeNetlink netlink) {
        this.socket = socket;
        this.netlink = netlink;
    }

    FakeNetlinkSocket socket() {
        return socket;
    }

    @Override
    public String kind() {
        return "netlink";
    }

    @Override
    public String describe() {
        return "netlink socket (NETLINK_GENERIC)";
    }

    @Override
    public long read(FakeProcess caller, OpenFile file, MemorySegment buf) {
        return socket.recvfrom(netlink.caller(caller), buf, 0, file.nonBlocking());
    }

    @Override
    public long write(FakeProcess caller, OpenFile file, MemorySegment buf) {
        return socket.sendto(netlink.caller(caller), buf, 0, MemorySegment.NULL);
    }

    @Override
    public int poll(FakeProcess caller, OpenFile file, int events, int timeoutMillis) {
        return socket.poll(netlink.caller(caller), events, timeoutMillis);
    }

    @Override
    public void bind(FakeProcess caller, OpenFile file, MemorySegment addr) {
        socket.bind(netlink.caller(caller), addr);
    }

    @Override
    public int getsockname(FakeProcess caller, OpenFile file, MemorySegment addr) {
        return socket.getsockname(addr);
    }

    @Override
    public void setsockopt(FakeProcess caller, OpenFile file, int level, int name, int value) {
        socket.setsockopt(level, name, value);
    }

    @Override
    public long sendto(FakeProcess caller, OpenFile file, MemorySegment buf, int flags, MemorySegment addr) {
        return socket.sendto(netlink.caller(caller), buf, flags, addr);
    }

    @Override
    public long recvfrom(FakeProcess caller, OpenFile file, MemorySegment buf, int flags) {
        return socket.recvfrom(netlink.caller(caller), buf, flags, file.nonBlocking());
    }

    @Override
    public FileStat stat() {
        return new FileStat(FileStat.Type.SOCKET, 0777, 0, 0, 0, 0);
    }

    @Override
    public void release() {
        socket.close();
    }
}
