/**
 * The kernel's ABI as vdpactl's other modules see it: the jextract-generated Panama bindings of the
 * vhost/vdpa uapi headers, libc and netlink; the one syscall seam ({@link org.vdpactl.sys.Syscalls},
 * implemented by {@link org.vdpactl.sys.PanamaSyscalls} over the real kernel and by the fake kernel);
 * the clocks; and the per-kernel facts ({@link org.vdpactl.abi.KernelProfile}) that the client and
 * the fake both read, as the kernel reads its headers.
 *
 * <p>This is the only module that calls restricted FFM methods: run with
 * {@code --enable-native-access=org.vdpactl.abi} (or {@code ALL-UNNAMED} on the class path).
 */
module org.vdpactl.abi {
    requires transitive org.slf4j;
    // errno and open(2) flag names only: a table of constants, no native code
    requires org.jnrproject.constants;
    requires com.fasterxml.jackson.databind;

    exports org.vdpactl.abi;
    exports org.vdpactl.sys;
    exports org.vdpactl.time;
    // the strict reader of vdpactl's own data files (profiles, the fake's state): no API
    exports org.vdpactl.abi.json to org.vdpactl.fake;
    // generated code is no API: only the layers that wrap it (the client) and the fake, which
    // answers in the same structures, read it
    exports org.vdpactl.ffi.gen.libc to org.vdpactl.client, org.vdpactl.fake;
    exports org.vdpactl.ffi.gen.netlink to org.vdpactl.client, org.vdpactl.fake;
    exports org.vdpactl.ffi.gen.vhost to org.vdpactl.client, org.vdpactl.fake;

    opens org.vdpactl.abi to com.fasterxml.jackson.databind;
}
