package org.vdpactl.cli;

/**
 * A command whose consecutive lines in a batch run on one opened backend and are saved together
 * ({@link BatchGroup}): one that only adds to the state and needs nothing another process changes meanwhile
 * (dev add; a name another process took meanwhile is refused when the group is saved). The one place that reads
 * this marker is {@link Main}'s execution strategy.
 */
public interface GroupedInBatch {
}
