package org.vdpactl.cli;

/**
 * A command that changes no device: on the fake backend it creates nothing on a state path that holds
 * no state (no directory, state, lock or open file; see {@link org.vdpactl.fake.state.StateWrites}). The
 * one place that reads this marker is {@link CliContext#open(Main, picocli.CommandLine, Object)}. Commands that change devices (dev add,
 * del, set) or drive them (rehearse, whose control-queue commands change the vendor statistics the fake
 * keeps, and vhost suspend/resume) do not carry it: they may create the state.
 */
public interface ReadOnlyCommand {
}
