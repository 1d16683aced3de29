/**
 * The downtime rehearsal over the device API: batched parallel suspend/resume/set_map across many devices,
 * the live-migration phases and their result model ({@code org.vdpactl.orchestra}). Its own module so that a
 * user of the device API alone ({@code org.vdpactl.client}) does not inherit HdrHistogram. It reaches the
 * kernel only through the device API: the generated bindings are not exported to it.
 */
module org.vdpactl.orchestra {
    requires transitive org.vdpactl.client;
    requires HdrHistogram;

    exports org.vdpactl.orchestra;
}
