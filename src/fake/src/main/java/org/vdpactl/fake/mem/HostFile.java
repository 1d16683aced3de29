package org.vdpactl.fake.mem;

/**
 * Host memory behind one fake file (a memfd): a growable extent whose every mapping sees the
 * same bytes at the same offsets, however many times and at whatever size the file is mapped.
 */
public interface HostFile extends AutoCloseable {

    /** Makes the extent at least {@code bytes} long (never shrinks it: live mappings keep their pages). */
    void ensureSize(long bytes);

    /**
     * Maps {@code length} bytes at {@code offset} (page multiples, within the extent): shared
     * mappings write through to the file, private ones are copy-on-write copies of it.
     */
    HostReservation map(long offset, long length, boolean shared);

    /** Drops the file; mappings made from it stay valid until released. */
    @Override
    void close();
}
