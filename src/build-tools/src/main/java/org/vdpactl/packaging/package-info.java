/**
 * Build-time helpers for the release: the bash/zsh completion script and the man pages generated
 * from the picocli model, the class-file modernisation of picocli that lets the JDK's AOT cache or
 * CDS archive hold it, and the training run that writes that archive. Run by {@code mvn package}
 * (see {@link org.vdpactl.packaging.ReleaseFiles}); nothing in the CLI or the library calls this package.
 */
package org.vdpactl.packaging;
