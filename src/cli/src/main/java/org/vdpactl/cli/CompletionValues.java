package org.vdpactl.cli;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import org.vdpactl.abi.KernelProfiles;
import org.vdpactl.fake.mlx5.Mlx5Presets;
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

    /** {@code bench orchestration --preset}: the mlx5 latency presets, oldest kernel first. */
    public static final class Presets implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return Mlx5Presets.names().iterator();
        }
    }

    /** {@code rehearse --compare}: each older preset against each newer one ("mlx5-pre612,mlx5-612"). */
    public static final class PresetPairs implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            List<String> names = new ArrayList<>(Mlx5Presets.names());
            List<String> pairs = new ArrayList<>();
            for (int i = 0; i < names.size(); i++) {
                for (int j = i + 1; j < names.size(); j++) {
                    pairs.add(names.get(i) + "," + names.get(j));
                }
            }
            return pairs.iterator();
        }
    }

    /** {@code --page-size}: the host page sizes the help names (base, huge, gigantic). */
    public static final class PageSizes implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return List.of("4K", "2M", "1G").iterator();
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
