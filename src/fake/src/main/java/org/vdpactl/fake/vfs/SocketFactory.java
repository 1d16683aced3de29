package org.vdpactl.fake.vfs;

import org.vdpactl.fake.FakeProcess;

/**
 * Creates the file behind a new socket of one (domain, protocol), e.g. the generic-netlink socket
 * of org.vdpactl.fake.netlink. Registered with {@link org.vdpactl.fake.inside.FakeInside#registerSocketFactory}.
 */
@FunctionalInterface
public interface SocketFactory {

    /**
     * @param process the process calling socket(2)
     * @param type    the full type argument (SOCK_RAW, SOCK_DGRAM, … possibly with SOCK_NONBLOCK / SOCK_CLOEXEC);
     *                the factory rejects types its family does not support (netlink: ESOCKTNOSUPPORT)
     */
    FakeFile create(FakeProcess process, int type);
}
