/**
 * The pieces of {@code vdpactl rehearse} and {@code vdpactl bench orchestration}: device selection,
 * memory options and layout files, the host memory budget, the progress line, and the text of the
 * preset comparison ({@code --compare}). The simulations themselves live in {@link org.vdpactl.sim}:
 * this package only renders them.
 */
package org.vdpactl.cli.rehearse;
