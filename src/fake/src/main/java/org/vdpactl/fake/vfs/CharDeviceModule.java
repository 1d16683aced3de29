package org.vdpactl.fake.vfs;

import java.util.List;
import java.util.ServiceLoader;

import org.vdpactl.fake.FakeKernel;

/**
 * The module_init of a char-device driver: builds the {@link CharDeviceDriver} of one fake kernel.
 * Implementations are listed in META-INF/services (org.vdpactl.fake.vfs.CharDeviceModule) and found with
 * {@link ServiceLoader}, as the kernel's initcalls find module_init functions without the core
 * naming a driver: this keeps org.vdpactl.fake free of imports of org.vdpactl.fake.vhost.
 */
public interface CharDeviceModule {

    /** Builds the driver's state for {@code kernel}; called once while the kernel boots. */
    CharDeviceDriver init(FakeKernel kernel);

    /** The one module on the class path (vhost_vdpa); loaded once, the modules are stateless. */
    static CharDeviceModule installed() {
        return Installed.MODULE;
    }

    /** Holder: the lookup runs on first use, not when the interface is loaded. */
    final class Installed {
        private static final CharDeviceModule MODULE = load();

        private Installed() {
        }

        private static CharDeviceModule load() {
            List<CharDeviceModule> found = ServiceLoader.load(CharDeviceModule.class, CharDeviceModule.class.getClassLoader())
                    .stream().map(ServiceLoader.Provider::get).toList();
            if (found.size() != 1) {
                throw new IllegalStateException("the fake kernel needs exactly one char-device module on the class path, found "
                        + found.size() + " (META-INF/services/" + CharDeviceModule.class.getName() + ")");
            }
            return found.getFirst();
        }
    }
}
