package org.vdpactl.cli;

import java.util.ArrayList;
import java.util.List;

/** The top-level subcommands, in the order --help lists them. */
final class Commands {
    private Commands() {
    }

    static List<Object> all() {
        List<Object> list = new ArrayList<>();
        list.add(new RehearseCommand());
        list.add(new org.vdpactl.cli.mgmt.MgmtdevCommand());
        list.add(new org.vdpactl.cli.mgmt.DevCommand());
        list.add(new org.vdpactl.cli.vhost.VhostCommand());
        list.add(new org.vdpactl.cli.doctor.DoctorCommand());
        list.add(new org.vdpactl.cli.migrate.MigrateCommand());
        list.add(new BenchCommand());
        list.add(new ReportCommand());
        list.add(new CompletionScript.Generate());
        list.add(new CompletionScript.Names());
        return list;
    }
}
