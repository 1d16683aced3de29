/**
 * The pieces of {@code vdpactl rehearse} and {@code vdpactl bench orchestration}: device selection,
 * memory options and layout files, the host memory budget, the progress line, the preset comparison
 * ({@code --compare}) and the orchestration benchmark, both on private simulated hosts.
 */
package org.vdpactl.cli.rehearse;
