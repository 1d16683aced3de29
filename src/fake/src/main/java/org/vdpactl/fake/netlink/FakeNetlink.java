package org.vdpactl.fake.netlink;

import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import org.vdpactl.fake.inside.FakeInside;
import org.vdpactl.fake.errno.KernelError;
import org.vdpactl.fake.vfs.GenericNetlinkModule;
import org.vdpactl.ffi.gen.libc.libc_h;
import org.vdpactl.ffi.gen.netlink.netlink_h;
import org.vdpactl.fake.FakeKernel;
import org.vdpactl.fake.FakeProcess;
import org.vdpactl.fake.vfs.KernelConstants;

/**
 * Plugs the generic netlink protocol into a {@link FakeKernel}: registers the AF_NETLINK /
 * NETLINK_GENERIC socket factory and keeps what the fake processes do not model themselves but
 * netlink checks: CAP_NET_ADMIN (a root process has it, see {@link org.vdpactl.fake.Credentials}, until a
 * test denies it; another process lacks it until a test grants it) and membership in
 * the initial network namespace.
 */
public final class FakeNetlink {
    private final FakeKernel kernel;
    private final FakeGenericNetlink generic;
    private final Map<FakeProcess, Boolean> capNetAdmin = Collections.synchronizedMap(new WeakHashMap<>());
    private final Map<FakeProcess, Boolean> initialNetns = Collections.synchronizedMap(new WeakHashMap<>());

    private FakeNetlink(FakeKernel kernel, int vdpaFamilyId) {
        this.kernel = kernel;
        this.generic = new FakeGenericNetlink(FakeInside.bus(kernel), kernel.faults(), vdpaFamilyId, kernel.kernelProfile());
    }

    /** The provider behind {@link FakeKernel.Builder#vdpaNetlink()} (META-INF/services, module-info). */
    public static final class Module implements GenericNetlinkModule {
        @Override
        public void install(FakeKernel kernel) {
            FakeNetlink.install(kernel);
        }
    }

    /** Installs generic netlink with the vdpa family at id 19. */
    public static FakeNetlink install(FakeKernel kernel) {
        return install(kernel, FakeGenericNetlink.DEFAULT_VDPA_FAMILY_ID);
    }

    public static FakeNetlink install(FakeKernel kernel, int vdpaFamilyId) {
        FakeNetlink n = new FakeNetlink(kernel, vdpaFamilyId);
        FakeInside.registerSocketFactory(kernel, libc_h.AF_NETLINK(), netlink_h.NETLINK_GENERIC(), n::createSocket);
        return n;
    }

    /** The protocol state (families, ports), e.g. to unload the vdpa family. */
    public FakeGenericNetlink generic() {
        return generic;
    }

    /** Grants or denies CAP_NET_ADMIN (in the initial user namespace) to a process. */
    public void setCapNetAdmin(FakeProcess process, boolean granted) {
        capNetAdmin.put(process, granted);
    }

    /** Puts a process into the initial network namespace or into another one (unshare -n). */
    public void setInitialNetNamespace(FakeProcess process, boolean initial) {
        initialNetns.put(process, initial);
    }

    NetlinkCaller caller(FakeProcess p) {
        return new NetlinkCaller.Fixed(p.pid(), capNetAdmin.getOrDefault(p, p.credentials().isRoot()), initialNetns.getOrDefault(p, true), kernel.clock());
    }

    private NetlinkSocketFile createSocket(FakeProcess process, int type) {
        int base = type & KernelConstants.SOCK_TYPE_MASK;
        if (base != libc_h.SOCK_RAW() && base != 2) { // SOCK_DGRAM
            throw KernelError.of(KernelConstants.ESOCKTNOSUPPORT, "netlink sockets are SOCK_RAW or SOCK_DGRAM");
        }
        return new NetlinkSocketFile(generic.openSocket(caller(process)), this);
    }
}
