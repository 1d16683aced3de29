package org.vdpactl.cli.mgmt;

import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vdpactl.cli.CliContext;
import org.vdpactl.mgmt.VdpaNetlink;

/**
 * The {@code list} / {@code show [NAME]} pair of one kind of vdpa netlink object (devices, management
 * devices): every object, or the one a name picks, printed as iproute2's vdpa prints them.
 *
 * @param all  the dump of every object
 * @param one  the object of one name (its errors are the command's)
 * @param json the --json document of a list
 * @param text the text of a list
 * @param warnings what the operator should know about the objects listed (one line each, on stderr), whichever output
 */
record NetlinkListing<T>(Function<VdpaNetlink, List<T>> all, BiFunction<VdpaNetlink, String, T> one,
        Function<List<T>, ?> json, Function<List<T>, String> text, Function<List<T>, List<String>> warnings) {
    private static final Logger LOG = LoggerFactory.getLogger(NetlinkListing.class);

    NetlinkListing(Function<VdpaNetlink, List<T>> all, BiFunction<VdpaNetlink, String, T> one, Function<List<T>, ?> json,
            Function<List<T>, String> text) {
        this(all, one, json, text, objects -> List.of());
    }

    /** Prints every object ({@code name} null) or the named one; exit status 0. */
    int show(CliContext ctx, String name) {
        try (VdpaNetlink nl = Netlink.open(ctx)) {
            return print(ctx, name == null ? all.apply(nl) : List.of(one.apply(nl, name)));
        }
    }

    /** Prints objects already read; exit status 0. */
    int print(CliContext ctx, List<T> objects) {
        warnings.apply(objects).forEach(w -> LOG.warn("vdpactl: warning: {}", w));
        ctx.printData(() -> json.apply(objects), out -> out.print(text.apply(objects)));
        return 0;
    }
}
