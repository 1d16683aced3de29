/**
 * The CLI's questions to the host it runs on, answered by JNR-POSIX (the design card's tool for
 * them): resource limits (getrlimit/setrlimit), whether a stream is a terminal (isatty), user names
 * (getpwuid). JNR-POSIX loads on the first question only, so commands that ask none start without it;
 * the library modules never see it (their enforcer rule keeps jnr-ffi and ASM out).
 */
package org.vdpactl.cli.host;
