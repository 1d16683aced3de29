/**
 * The one syscall seam: {@link org.vdpactl.sys.Syscalls} is every system call vdpactl makes (open, ioctl,
 * read/write, mmap, sockets, eventfd, memfd, poll), with errno carried by {@link org.vdpactl.sys.SyscallException}.
 * {@link org.vdpactl.sys.PanamaSyscalls} implements it over the real kernel with FFM downcalls that capture errno;
 * the fake kernel implements the same interface, and nothing above the seam knows which one it talks to.
 */
package org.vdpactl.sys;
