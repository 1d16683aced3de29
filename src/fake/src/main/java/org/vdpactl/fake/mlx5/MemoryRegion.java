package org.vdpactl.fake.mlx5;

/**
 * One MR (indirect key + direct keys), or the PA-mode DMA MR when {@code geometry} is null. An
 * ASID holds one reference; with {@link Mlx5Features#vqsHoldMrRefs()} each VQ object using its
 * MKEY holds one more.
 */
final class MemoryRegion {
    final MrGeometry geometry;
    int refs = 1;

    MemoryRegion(MrGeometry geometry) {
        this.geometry = geometry;
    }

    boolean isDma() {
        return geometry == null;
    }
}
