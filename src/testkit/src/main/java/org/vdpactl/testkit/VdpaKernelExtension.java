package org.vdpactl.testkit;

import java.io.IOException;
import java.lang.reflect.Parameter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.vdpactl.abi.KernelProfile;
import org.vdpactl.fake.FakeKernel;
import org.vdpactl.fake.FakeProcess;
import org.vdpactl.fake.OpenFd;
import org.vdpactl.mgmt.VdpaNetlink;
import org.vdpactl.sys.Syscalls;
import org.vdpactl.time.Clock;
import org.vdpactl.time.VirtualClock;
import org.vdpactl.vhost.VhostVdpaDevice;

/**
 * The JUnit 5 extension behind {@link FakeKernelTest}: a fresh kernel per test, injected as parameters, and a
 * leak check after it. Registered by the annotation, or programmatically:
 *
 * <pre>{@code
 * @RegisterExtension
 * static final VdpaKernelExtension KERNEL = VdpaKernelExtension.builder().kernel("7.2")
 *         .device("mlx5-0", "mlx5").fault("mlx5-0", "VHOST_VDPA_SUSPEND", "EIO", 1).build();
 * }</pre>
 *
 * A test method's {@link FakeKernelTest} wins over the class's, which wins over the programmatic spec.
 */
public final class VdpaKernelExtension implements BeforeEachCallback, AfterEachCallback, ParameterResolver {
    private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(VdpaKernelExtension.class);
    private static final KernelSpec DEFAULT = new KernelSpec("6.12", List.of(), List.of(), KernelClock.VIRTUAL);
    /** Frames of these packages are the kit's or the library's, not where a test opened a descriptor. */
    private static final List<String> LIBRARY_FRAMES = List.of("org.vdpactl.fake.", "org.vdpactl.sys.", "org.vdpactl.vhost.",
            "org.vdpactl.netlink.", "org.vdpactl.mgmt.", "java.", "jdk.", "sun.");
    /** The kit's own classes (the kit's package may also hold a user's tests). */
    private static final Set<String> KIT_CLASSES = Set.of(KernelUnderTest.class.getName(), VdpaKernelExtension.class.getName(),
            KernelFactory.class.getName());

    private final KernelSpec programmatic;

    /** The extension as {@link FakeKernelTest} registers it (its spec comes from the annotations). */
    public VdpaKernelExtension() {
        this(null);
    }

    private VdpaKernelExtension(KernelSpec spec) {
        this.programmatic = spec;
    }

    /** A programmatic configuration, for {@code @RegisterExtension}. */
    public static Builder builder() {
        return new Builder();
    }

    // ------------------------------------------------------------------ lifecycle

    /** The state of one test: its kernel, and what the kit must undo. */
    private record Running(KernelUnderTest kernel, FakeKernel fake, List<String> createdOnRealKernel, Set<Integer> fdsBefore) {
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        KernelSpec spec = specFor(context);
        boolean real = KernelFactory.realKernelRequested();
        KernelSpecCheck.check(spec, originOf(context));
        if (real) {
            Set<Integer> before = procSelfFds();
            List<String> created = new ArrayList<>();
            KernelUnderTest k = KernelFactory.real(spec, created);
            context.getStore(NS).put(Running.class, new Running(k, null, created, before));
        } else {
            FakeKernel fake = KernelFactory.fake(spec);
            context.getStore(NS).put(Running.class, new Running(KernelFactory.underTest(fake), fake, List.of(), Set.of()));
        }
    }

    @Override
    public void afterEach(ExtensionContext context) {
        Running r = context.getStore(NS).remove(Running.class, Running.class);
        if (r == null) {
            return;
        }
        List<String> leaks = new ArrayList<>();
        try {
            r.kernel().closeKitHandles();
            if (r.fake() != null) {
                for (FakeProcess p : r.kernel().processes()) {
                    p.openFds().forEach(fd -> leaks.add(describe(p, fd)));
                }
            } else {
                Set<Integer> now = procSelfFds();
                now.removeAll(r.fdsBefore());
                now.forEach(fd -> leaks.add("fd " + fd + " -> " + linkOf(fd) + " (opened during the test)"));
            }
        } finally {
            if (r.fake() != null) {
                r.kernel().processes().forEach(FakeProcess::close);
                r.fake().close();
            } else {
                KernelFactory.deleteReal(r.createdOnRealKernel());
            }
        }
        if (!leaks.isEmpty()) {
            throw new AssertionError("the test left " + leaks.size() + " file descriptor(s) open:\n  "
                    + String.join("\n  ", leaks));
        }
    }

    // ------------------------------------------------------------------ parameters

    private static final Set<Class<?>> INJECTED = Set.of(KernelUnderTest.class, Syscalls.class, FakeKernel.class,
            KernelProfile.class, Clock.class, VirtualClock.class, VdpaNetlink.class, VhostVdpaDevice.class);

    @Override
    public boolean supportsParameter(ParameterContext pc, ExtensionContext ec) {
        return INJECTED.contains(pc.getParameter().getType());
    }

    @Override
    public Object resolveParameter(ParameterContext pc, ExtensionContext ec) {
        Running r = ec.getStore(NS).get(Running.class, Running.class);
        if (r == null) {
            throw new ParameterResolutionException("no kernel: " + pc.getParameter().getType().getSimpleName()
                    + " parameters are for test methods (not constructors or @BeforeAll)");
        }
        KernelUnderTest k = r.kernel();
        Parameter p = pc.getParameter();
        Class<?> type = p.getType();
        if (p.isAnnotationPresent(DeviceName.class) && type != VhostVdpaDevice.class) {
            throw new ParameterResolutionException("@DeviceName on a " + type.getSimpleName() + " parameter: it names the"
                    + " device a VhostVdpaDevice parameter opens, and means nothing on any other type");
        }
        if (type == KernelUnderTest.class) {
            return k;
        } else if (type == Syscalls.class) {
            return k.syscalls();
        } else if (type == FakeKernel.class) {
            return k.fake().orElseThrow(() -> new ParameterResolutionException("FakeKernel: the test runs on the real kernel"));
        } else if (type == KernelProfile.class) {
            return k.profile();
        } else if (type == Clock.class) {
            return k.clock();
        } else if (type == VirtualClock.class) {
            if (k.clock() instanceof VirtualClock v) {
                return v;
            }
            throw new ParameterResolutionException("VirtualClock: the kernel runs on a real clock");
        } else if (type == VdpaNetlink.class) {
            return k.netlink();
        } else {
            String name = Optional.ofNullable(p.getAnnotation(DeviceName.class)).map(DeviceName::value)
                    .or(() -> k.devices().stream().findFirst())
                    .orElseThrow(() -> new ParameterResolutionException("VhostVdpaDevice: the kernel has no device"));
            return k.openDevice(name);
        }
    }

    // ------------------------------------------------------------------ helpers

    /**
     * The spec of a test: its method's {@link FakeKernelTest}, else the nearest annotated class from the test's
     * own outwards (a {@code @Nested} class inherits its enclosing class's), else the programmatic one.
     */
    private KernelSpec specFor(ExtensionContext context) {
        return annotationFor(context).map(KernelSpec::of).orElse(programmatic != null ? programmatic : DEFAULT);
    }

    private static Optional<FakeKernelTest> annotationFor(ExtensionContext context) {
        Optional<FakeKernelTest> onMethod = context.getTestMethod().map(m -> m.getAnnotation(FakeKernelTest.class));
        if (onMethod.isPresent()) {
            return onMethod;
        }
        for (Class<?> c : testClassesInsideOut(context)) {
            FakeKernelTest a = c.getAnnotation(FakeKernelTest.class);
            if (a != null) {
                return Optional.of(a);
            }
        }
        return Optional.empty();
    }

    /** The test's class, then the classes of the enclosing contexts (a {@code @Nested} class's outer classes). */
    private static List<Class<?>> testClassesInsideOut(ExtensionContext context) {
        List<Class<?>> out = new ArrayList<>();
        for (Optional<ExtensionContext> c = Optional.of(context); c.isPresent(); c = c.get().getParent()) {
            c.get().getTestClass().filter(k -> !out.contains(k)).ifPresent(out::add);
        }
        return out;
    }

    /** Where the spec came from, for a message that points at it. */
    private String originOf(ExtensionContext context) {
        String test = context.getTestClass().map(Class::getSimpleName).orElse("?")
                + context.getTestMethod().map(m -> "." + m.getName()).orElse("");
        if (context.getTestMethod().map(m -> m.isAnnotationPresent(FakeKernelTest.class)).orElse(false)) {
            return "@FakeKernelTest on " + test;
        }
        for (Class<?> c : testClassesInsideOut(context)) {
            if (c.isAnnotationPresent(FakeKernelTest.class)) {
                return "@FakeKernelTest on " + c.getSimpleName() + " (for " + test + ")";
            }
        }
        return programmatic != null ? "VdpaKernelExtension.builder() (for " + test + ")" : "the default kernel";
    }

    private static String describe(FakeProcess p, OpenFd fd) {
        String where = fd.openedAt().stream()
                .filter(f -> LIBRARY_FRAMES.stream().noneMatch(f.getClassName()::startsWith) && !KIT_CLASSES.contains(f.getClassName()))
                .findFirst().map(StackTraceElement::toString)
                .orElse(fd.openedAt().isEmpty() ? "unknown" : fd.openedAt().getFirst().toString());
        return "fd " + fd.fd() + " (" + fd.file() + ") of " + p + ", opened at " + where;
    }

    private static Set<Integer> procSelfFds() {
        Set<Integer> out = new TreeSet<>();
        try (Stream<Path> s = Files.list(Path.of("/proc/self/fd"))) {
            s.forEach(f -> out.add(Integer.parseInt(f.getFileName().toString())));
        } catch (IOException | NumberFormatException e) {
            // no /proc: no leak check on the real kernel
        }
        return out;
    }

    private static String linkOf(int fd) {
        try {
            return Files.readSymbolicLink(Path.of("/proc/self/fd", Integer.toString(fd))).toString();
        } catch (IOException e) {
            return "?";
        }
    }

    /** A programmatic spec. */
    public static final class Builder {
        private String kernel = "6.12";
        private final List<KernelSpec.DeviceSpec> devices = new ArrayList<>();
        private final List<KernelSpec.FaultSpec> faults = new ArrayList<>();
        private KernelClock clock = KernelClock.VIRTUAL;

        private Builder() {
        }

        /** The release ("6.1", "6.12", "7.2" or an alias). */
        public Builder kernel(String k) {
            this.kernel = k;
            return this;
        }

        /** A device with no provisioning on the management device "vdpasim_net", "vdpasim_blk" or "mlx5". */
        public Builder device(String name, String mgmtdev) {
            devices.add(KernelSpec.DeviceSpec.of(name, mgmtdev));
            return this;
        }

        /** A device as given. */
        public Builder device(KernelSpec.DeviceSpec d) {
            devices.add(d);
            return this;
        }

        /** A fault rule: {@code call} on {@code device} fails with {@code errno} on its {@code occurrence}-th match (0: every one). */
        public Builder fault(String device, String call, String errno, long occurrence) {
            faults.add(new KernelSpec.FaultSpec(device, call, errno, occurrence));
            return this;
        }

        /** The clock (virtual by default). */
        public Builder clock(KernelClock c) {
            this.clock = c;
            return this;
        }

        public VdpaKernelExtension build() {
            return new VdpaKernelExtension(new KernelSpec(kernel, devices, faults, clock));
        }
    }
}
