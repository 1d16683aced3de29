package org.vdpactl.fake.vfs;

import java.util.List;
import java.util.ServiceLoader;

import org.vdpactl.fake.FakeKernel;

/**
 * The module_init of generic netlink with the vdpa family: registers the AF_NETLINK/NETLINK_GENERIC sockets of one
 * fake kernel ({@link FakeKernel.Builder#vdpaNetlink()}). Found with {@link ServiceLoader} like
 * {@link CharDeviceModule}, so that org.vdpactl.fake imports nothing of org.vdpactl.fake.netlink.
 */
public interface GenericNetlinkModule {

    /** Registers the socket factory on {@code kernel}; called once, right after the kernel boots. */
    void install(FakeKernel kernel);

    /** The one module on the class path or module path (org.vdpactl.fake.netlink's). */
    static GenericNetlinkModule installed() {
        return Installed.MODULE;
    }

    /** Holder: the lookup runs on first use, not when the interface is loaded. */
    final class Installed {
        private static final GenericNetlinkModule MODULE = load();

        private Installed() {
        }

        private static GenericNetlinkModule load() {
            List<GenericNetlinkModule> found = ServiceLoader.load(GenericNetlinkModule.class,
                    GenericNetlinkModule.class.getClassLoader()).stream().map(ServiceLoader.Provider::get).toList();
            if (found.size() != 1) {
                throw new IllegalStateException("the fake kernel needs exactly one generic netlink module, found " + found.size()
                        + " (META-INF/services/" + GenericNetlinkModule.class.getName() + ")");
            }
            return found.getFirst();
        }
    }
}
