/**
 * The fleet report of {@code vdpactl report merge}: per-host rehearsal documents (as the Ansible
 * collection under ansible/ fetches them) merged into one table per host, slowest first, and the
 * spread of every phase across the hosts, as text, JSON and HTML.
 */
package org.vdpactl.report.fleet;
