package org.vdpactl.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * Mixed into every command ({@code @Mixin CommandContext context}) to reach the {@link CliContext} of the
 * execution in progress: it is held by the root command ({@link Main}) of the command line the command
 * belongs to, so two command lines (e.g. tests running in parallel) never see each other's context, and
 * nothing depends on which thread runs the command.
 */
@Command // picocli accepts a mixin only with one of its annotations; this one adds no options
public final class CommandContext {
    @Spec(Spec.Target.MIXEE)
    CommandSpec mixee;

    /** The running command's context: backend, streams, output mode. */
    public CliContext get() {
        if (!(mixee.root().userObject() instanceof Main main)) {
            throw new IllegalStateException(mixee.qualifiedName() + " is not part of a vdpactl command line");
        }
        return main.context();
    }
}
