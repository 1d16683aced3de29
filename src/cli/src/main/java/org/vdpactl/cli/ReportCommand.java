package org.vdpactl.cli;

import com.fasterxml.jackson.core.type.TypeReference;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.vdpactl.report.JsonDocument;
import org.vdpactl.report.fleet.CompatibilityMatrix;
import org.vdpactl.report.fleet.FleetHtml;
import org.vdpactl.report.fleet.FleetReport;
import org.vdpactl.report.fleet.FleetText;
import org.vdpactl.report.fleet.HostRehearsal;
import org.vdpactl.report.fleet.RehearsalDocuments;
import picocli.CommandLine.Mixin;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code vdpactl report ...}: reports built from earlier outputs (no backend is opened). */
@Command(name = "report", mixinStandardHelpOptions = true, description = "Reports from earlier vdpactl outputs.",
        subcommands = ReportCommand.MergeCommand.class)
public final class ReportCommand extends CommandGroup {

    /**
     * {@code report merge FILE.json...}: one fleet report from per-host {@code rehearse --json} documents.
     * A bad file is a usage error (exit 2) naming the file; nothing is written then.
     */
    @Command(name = "merge", mixinStandardHelpOptions = true, sortOptions = false,
            description = {"Merge per-host rehearsal documents (vdpactl rehearse --json) into one fleet report.",
                    "It has a row per host, slowest first, and each phase's spread across the hosts.",
                    "The host is the document's 'host' field (the Ansible module vdpa_rehearse adds it),",
                    "else the file name without .json."},
            footerHeading = "%nExamples:%n",
            footer = {"  vdpactl report merge reports/*.json",
                    "  vdpactl report merge --html fleet.html --json reports/*.json > fleet.json"})
    static final class MergeCommand implements Callable<Integer> {
        @Mixin
        CommandContext context;

        @Parameters(paramLabel = "FILE.json", arity = "1..*", description = "Rehearsal documents, one per host.")
        List<Path> files = new ArrayList<>();

        @Option(names = "--html", paramLabel = "FILE.html", description = "Also write the report as one self-contained HTML file.")
        Path html;

        @Option(names = "--check", paramLabel = "CHECK.json", split = ",",
                description = "migrate check --json documents: adds the compatibility matrix (host × host, worst verdict).")
        List<Path> checks = new ArrayList<>();

        @Override
        public Integer call() {
            CliContext ctx = context.get();
            if (html != null) {
                OutputFiles.refuseInputs(ctx, "--html", html, files);
            }
            List<HostRehearsal> hosts = new ArrayList<>();
            for (Path f : files) {
                hosts.add(RehearsalDocuments.read(f));
            }
            FleetReport report = FleetReport.merge(hosts);
            CompatibilityMatrix matrix = checks.isEmpty() ? null
                    : CompatibilityMatrix.read(checks);
            if (html != null) {
                String page = FleetHtml.render(report);
                if (matrix != null) {
                    page = page.replace("</style>", CompatibilityMatrix.CSS + "</style>")
                            .replace("</body>", matrix.html() + "</body>");
                }
                try {
                    Files.writeString(html, page, StandardCharsets.UTF_8);
                } catch (IOException e) {
                    throw CliFailure.from(e, "cannot write " + html + ": " + e.getMessage());
                }
            }
            ctx.printDocument(JsonDocument.FLEET, () -> {
                if (matrix == null) {
                    return report;
                }
                Map<String, Object> doc = new LinkedHashMap<>(ctx.mapper().convertValue(report,
                        new TypeReference<Map<String, Object>>() { }));
                doc.put("compatibility", matrix);
                return doc;
            }, out -> out.print(FleetText.render(report) + (matrix == null ? "" : matrix.text())));
            if (html != null) {
                ctx.err().println("vdpactl: fleet report written to " + html);
                ctx.err().flush();
            }
            return ExitCode.OK.code();
        }
    }
}
