/**
 * The fake kernel's VFS inside: the file operations behind an open file ({@link org.vdpactl.fake.vfs.FakeFile},
 * {@link org.vdpactl.fake.vfs.OpenFile}) and their kinds (eventfd, pipe, memfd, /dev/null, sysfs attributes), the
 * char-device and generic-netlink module registrations, and the user-memory helpers. Not API: exported only to
 * vdpactl's own modules.
 */
package org.vdpactl.fake.vfs;
