package org.vdpactl.fake.netlink;

import org.vdpactl.time.Clock;

/**
 * Who makes a netlink call, as far as the kernel cares: the capability GENL_ADMIN_PERM checks
 * (CAP_NET_ADMIN in the initial user namespace), the network namespace (the vdpa family is not
 * netns-aware), the thread group id (the first socket's port id) and the caller's clock.
 */
public interface NetlinkCaller {

    boolean hasCapNetAdmin();

    boolean inInitialNetNamespace();

    int tgid();

    Clock clock();

    /** A fixed caller, for tests and simple setups. */
    record Fixed(int tgid, boolean hasCapNetAdmin, boolean inInitialNetNamespace, Clock clock) implements NetlinkCaller {
    }
}
