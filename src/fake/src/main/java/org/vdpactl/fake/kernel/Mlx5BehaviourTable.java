package org.vdpactl.fake.kernel;

import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

import org.vdpactl.abi.KernelProfile;
import org.vdpactl.abi.KernelProfiles;

/**
 * docs/fake-kernel.md's "mlx5_vdpa per kernel" table, rendered from the behaviours in each kernel's
 * mlx5 facts file ({@link Mlx5KernelFacts#behaviours()}), so the table says what the data says
 * ({@code GeneratedDocBlocksTest} compares them). The source line of each behaviour stays in the facts file.
 */
public final class Mlx5BehaviourTable {
    private Mlx5BehaviourTable() {
    }

    /** The Markdown table: one column per kernel profile with mlx5 facts, a row for modelled and one for not. */
    public static String markdown() {
        List<Mlx5KernelFacts> facts = KernelProfiles.all().stream().map(KernelProfile::version)
                .map(Mlx5KernelFacts::forKernel).flatMap(Optional::stream).toList();
        StringBuilder b = new StringBuilder("| |");
        facts.forEach(f -> b.append(' ').append(f.kernel()).append(" |"));
        b.append("\n|---|");
        facts.forEach(f -> b.append("---|"));
        row(b, "Modelled", facts, true);
        row(b, "Not modelled", facts, false);
        return b.toString();
    }

    private static void row(StringBuilder b, String title, List<Mlx5KernelFacts> facts, boolean modelled) {
        b.append("\n| ").append(title).append(" |");
        for (Mlx5KernelFacts f : facts) {
            String cell = f.behaviours().stream().filter(x -> x.modelled() == modelled)
                    .map(Mlx5KernelFacts.Behaviour::detail).collect(Collectors.joining("; "));
            b.append(' ').append(cell.isEmpty() ? "—" : cell).append(" |");
        }
    }

    /** Prints the table (for a look at it outside the docs). */
    public static void main(String[] args) {
        System.out.println(markdown());
    }
}
