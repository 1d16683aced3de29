package org.vdpactl.cli;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import org.vdpactl.abi.KernelProfiles;
import org.vdpactl.orchestra.Strategy;
import org.vdpactl.orchestra.WindowMode;

/**
 * The values shell completion offers for vdpactl's enumerated options, spelled as the help shows them
 * (lower case) and taken from where the values are defined, so that they cannot drift apart.
 */
public final class CompletionValues {
    private CompletionValues() {
    }

    /** {@code --backend}: auto, kernel, fake. */
    public static final class Backends implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return Arrays.stream(BackendKind.values()).map(k -> k.name().toLowerCase(Locale.ROOT)).iterator();
        }
    }

    /** {@code --strategy}: serial, parallel, pipelined. */
    public static final class Strategies implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return Arrays.stream(Strategy.values()).map(Strategy::label).iterator();
        }
    }

    /** {@code --window}: migration, in-place. */
    public static final class Windows implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return Arrays.stream(WindowMode.values()).map(WindowMode::label).iterator();
        }
    }

    /** {@code --fake-kernel}: the versions and their aliases. */
    public static final class FakeKernels implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            List<String> all = new ArrayList<>(KernelProfiles.VERSIONS);
            KernelProfiles.VERSIONS.forEach(v -> KernelProfiles.byName(v).ifPresent(p -> all.addAll(p.aliases())));
            return all.iterator();
        }
    }

    /** {@code --fake-clock}: real, virtual. */
    public static final class FakeClocks implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return List.of("real", "virtual").iterator();
        }
    }
}
