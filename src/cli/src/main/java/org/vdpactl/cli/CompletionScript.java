package org.vdpactl.cli;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import org.vdpactl.cli.mgmt.Netlink;
import org.vdpactl.mgmt.MgmtDevInfo;
import org.vdpactl.mgmt.VdpaDevInfo;
import org.vdpactl.mgmt.VdpaNetlink;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * The bash/zsh completion script: picocli's (commands, options, the values of enumerated options) and,
 * as iproute2's and git's completions do, the names that exist right now: device names where a
 * command takes a device and management devices after {@code --mgmtdev} or {@code mgmtdev show},
 * asked of vdpactl itself ({@code vdpactl __complete devices|mgmtdevs}, hidden, read-only, silent on errors).
 */
public final class CompletionScript {
    /** Wraps picocli's completion function: a name where one is expected, else picocli's answer. */
    private static final String DYNAMIC = """

            # Names that exist now, asked of vdpactl itself (as git and iproute2 complete refs and devices).
            _vdpactl_names() {
                local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}" kind=""
                local before=" ${COMP_WORDS[*]:1:COMP_CWORD-1} "
                # the options that choose the backend and its state, as given: the names come from the same place
                local -a scope=()
                local i w v
                for ((i = 1; i < COMP_CWORD; i++)); do
                    w="${COMP_WORDS[i]}"
                    case "$w" in
                        --backend|--fake-state|--fake-kernel)
                            v="${COMP_WORDS[i+1]}"
                            if [[ "$v" == "=" ]]; then v="${COMP_WORDS[i+2]}"; fi
                            [[ -n "$v" ]] && scope+=("$w=$v") ;;
                        --backend=*|--fake-state=*|--fake-kernel=*) scope+=("$w") ;;
                    esac
                done
                case "$prev" in
                    --mgmtdev) kind=mgmtdevs ;;
                    --dest) kind=devices ;;
                    qidx|--qidx) COMPREPLY=(); return 0 ;;
                    -*) ;;
                    *)
                        case "$before" in
                            *" mgmtdev show "*) kind=mgmtdevs ;;
                            *" dev vstats "*)
                                # dev vstats [show] NAME qidx N: the name first, then the queue
                                local rest="${before#* dev vstats }"
                                rest="${rest#show }"
                                if [[ -z "${rest// /}" ]]; then
                                    kind=devices
                                else
                                    COMPREPLY=($(compgen -W "qidx --qidx --all" -- "$cur"))
                                    return 0
                                fi ;;
                            @DEV_COMMANDS@) kind=devices ;;
                        esac ;;
                esac
                if [[ -n "$kind" && "$cur" != -* ]]; then
                    local IFS=$'\\n'
                    COMPREPLY=($(compgen -W "$("${COMP_WORDS[0]}" "${scope[@]}" __complete "$kind" 2>/dev/null)" -- "$cur"))
                    [[ ${#COMPREPLY[@]} -gt 0 ]] && return 0
                fi
                _complete_vdpactl "$@"
            }
            complete -F _vdpactl_names -o default vdpactl vdpactl.sh vdpactl.bash
            """;

    private CompletionScript() {
    }

    /** A positional parameter with this label takes existing vDPA device names: the script completes them. */
    static final String DEVICE_LABEL = "DEV";

    /** The script for the command tree of {@code root}. */
    public static String bash(CommandLine root) {
        // the dev group's NAME parameters keep iproute2's label (dev add's NAME is a new name): listed here
        List<String> patterns = new ArrayList<>(List.of("*\" dev del \"*", "*\" dev show \"*", "*\" dev config \"*",
                "*\" dev set \"*"));
        deviceCommands(root, "", patterns);
        return AutoComplete.bash("vdpactl", root) + DYNAMIC.replace("@DEV_COMMANDS@", String.join("|", patterns));
    }

    /**
     * The commands under {@code cl} with a positional {@link #DEVICE_LABEL} parameter, as the script's case
     * patterns ({@code *" vhost suspend "*}): a new command that takes devices is completed without an edit here.
     */
    static void deviceCommands(CommandLine cl, String path, List<String> out) {
        Set<CommandLine> seen = new LinkedHashSet<>(cl.getSubcommands().values()); // an alias maps to the same one
        for (CommandLine sub : seen) {
            String subPath = path + " " + sub.getCommandName();
            if (sub.getCommandSpec().positionalParameters().stream().anyMatch(p -> DEVICE_LABEL.equals(p.paramLabel()))) {
                out.add("*\"" + subPath + " \"*");
            }
            deviceCommands(sub, subPath, out);
        }
    }

    /** {@code vdpactl generate-completion}: prints the script (source it, or install it as bash-completion does). */
    @Command(name = "generate-completion", mixinStandardHelpOptions = true,
            description = {"Generate a bash/zsh completion script for vdpactl.",
                    "Run: source <(vdpactl generate-completion)"})
    static final class Generate implements Runnable {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public void run() {
            spec.commandLine().getOut().print(bash(spec.root().commandLine()));
            spec.commandLine().getOut().flush();
        }
    }

    /** {@code vdpactl __complete devices|mgmtdevs}: the names, one a line; nothing on any failure. */
    @Command(name = "__complete", hidden = true, description = "Print the device or management-device names, for the completion script.")
    static final class Names implements Callable<Integer>, ReadOnlyCommand {
        @Mixin
        CommandContext context;

        @Parameters(paramLabel = "devices|mgmtdevs", description = "Which names: devices or mgmtdevs.")
        String kind;

        @Override
        public Integer call() {
            try {
                CliContext ctx = context.get();
                List<String> names;
                try (VdpaNetlink nl = Netlink.open(ctx)) {
                    names = switch (kind) {
                        case "devices" -> nl.devices().stream().map(VdpaDevInfo::name).toList();
                        case "mgmtdevs" -> nl.mgmtDevices().stream().map(CompletionScript::name).toList();
                        default -> List.of();
                    };
                }
                names.forEach(ctx.out()::println);
                ctx.out().flush();
            } catch (RuntimeException e) {
                // completion must never print an error into the user's command line
            }
            return 0;
        }
    }

    private static String name(MgmtDevInfo m) {
        return m.busName() == null ? m.devName() : m.busName() + "/" + m.devName();
    }
}
