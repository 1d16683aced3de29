# shellcheck shell=bash
# How a command line's JVM starts: its JVM flags and the start-up cache it uses. Both launchers (scripts/vdpactl and
# the release archive's bin/vdpactl, which ships this file as lib/aot-cache.sh) source it, scripts/bench's start-up
# parts measure with it (lib/bench-startup.sh, bench-classes.sh, bench-profile.sh), and AotCacheRuleTest runs it.
#
# The build trains two AOT caches (org.vdpactl.packaging.ReleaseFiles, AotTraining): vdpactl.aot on every command
# line of the training and vdpactl-kernel.aot on those that do not use the fake backend. A JVM started with an AOT
# cache loads every class the cache holds before main (AOT class linking), so a command on the kernel backend
# started with the whole cache also loaded the fake kernel's classes and Jackson's data binding, which it never
# uses. The rule: the kernel cache when the command line's backend is the kernel (the last --backend given, else
# VDPACTL_BACKEND, else auto: the kernel when the host has vdpa, as org.vdpactl.cli.Backends.kernelHasVdpa decides),
# the whole cache otherwise. A wrong guess costs start-up time only: a class a cache lacks is read from the jar.

# vdpactl_jvm_flags ARGS...: sets the array VDPACTL_JVM_FLAGS to the JVM flags of the command line ARGS (no fork).
#   - The JVM's own warnings (unified logging) go to stderr: by default they go to stdout, where they corrupt the data
#     a command prints (with many vdpactl processes at once a reused pid's locked hsperfdata file made the JVM print
#     "[warning][perf,memops] Cannot use file /tmp/hsperfdata_..." into `dev list --json`'s output:
#     scripts/check-concurrency, 1 run in 6).
#   - The serial collector: a command's heap is small, and the AOT cache is trained with it (a cache keeps the heap
#     objects of its collector's layout).
#   - C1 alone (-XX:TieredStopAtLevel=1) unless the line runs `bench`: a command is over before C2's code would pay
#     back its compilation, while a benchmark runs long enough to need it.
#   - Compile thresholds four times the default (-XX:CompileThresholdScaling=4) for a short command: C1 then compiles
#     only what runs often, and a short command's CPU went to its compiler thread for methods it ran a few times
#     (a CPU profile of `fake dev list`: 37 % of it on that thread; with the flag, 13 % less CPU in all). Not for a
#     line that times what it drives (rehearse, migrate, vhost) nor a batch (-b/--batch): their measured phases run
#     code the compiler would reach later (the fake's real-clock rehearsal reported 7 % more downtime with it).
vdpactl_jvm_flags() {
    local a short=1
    VDPACTL_JVM_FLAGS=(-Xlog:disable -Xlog:all=warning:stderr:uptime,level,tags -XX:+UseSerialGC)
    for a in "$@"; do
        case $a in
            bench) return 0 ;;
            rehearse | migrate | vhost | -b* | --batch | --batch=*) short=0 ;;
        esac
    done
    VDPACTL_JVM_FLAGS+=(-XX:TieredStopAtLevel=1)
    if [ "$short" = 1 ]; then
        VDPACTL_JVM_FLAGS+=(-XX:CompileThresholdScaling=4)
    fi
}

# vdpactl_main_args JAR [CACHE]: sets the array VDPACTL_MAIN_ARGS to what follows the JVM flags to run vdpactl from JAR
# (no fork); CACHE is the AOT cache the JVM starts with (vdpactl_aot_flags), if any.
#   - With a cache: the jar's main class on the class path and native access granted on the command line, not -jar.
#     The Java launcher opens a -jar's file for its manifest and closes it, then the class loader opens it again:
#     every start read the jar's central directory (thousands of entries, its dependencies' too) twice, in
#     interpreted code (a CPU profile of `--backend kernel dev list`; docs/benchmarks.md, "Where the start-up goes").
#     --enable-native-access is a module option, and the JVM refuses an AOT cache whose module options differ from
#     its training's: ReleaseFiles trains the caches with this very option (the manifest's Enable-Native-Access,
#     which only a -jar run reads, is not the option).
#   - Without one: -jar, whose manifest grants native access. The option would not match the JDK's own CDS archive,
#     dumped without it, and the JVM would then start without that archive's module graph, which costs CPU at every
#     start.
# shellcheck disable=SC2034 # VDPACTL_MAIN_ARGS is read by the scripts that source this file
vdpactl_main_args() {
    if [ -n "${2:-}" ]; then
        VDPACTL_MAIN_ARGS=(--enable-native-access=ALL-UNNAMED -cp "$1" org.vdpactl.cli.Main)
    else
        VDPACTL_MAIN_ARGS=(-jar "$1")
    fi
}

# vdpactl_aot_flags CACHE: sets the array VDPACTL_AOT_FLAGS to the JVM flags that run on the AOT cache CACHE (JDK 25+).
#   - The JVM's notes about the cache stay off stdout, which is for vdpactl's output; an error says why on stderr.
#   - No replay of training data (-XX:-AOTReplayTraining, a diagnostic flag of JDK 25): the build trains its caches
#     without method profiles (org.vdpactl.packaging.ReleaseFiles.NO_PROFILES), yet a JVM on such a cache still ran a
#     replay thread and replay work in class initialisation at start (a CPU profile of `fake dev list`: 4 % of its
#     CPU on that thread, 5 % of the main thread's in the replay; without it 5 % less CPU in all).
# shellcheck disable=SC2034 # VDPACTL_AOT_FLAGS is read by the scripts that source this file
vdpactl_aot_flags() {
    VDPACTL_AOT_FLAGS=("-XX:AOTCache=$1" "-Xlog:aot*=off:stdout" "-Xlog:aot=error:stderr"
        -XX:+UnlockDiagnosticVMOptions -XX:-AOTReplayTraining)
}

# vdpactl_aot_cache DIR ARGS...: sets VDPACTL_AOT_CACHE to the cache in DIR for the command line ARGS, or to nothing
# when DIR has no cache (no fork: the launcher pays for every line run here at every start).
# shellcheck disable=SC2034 # VDPACTL_AOT_CACHE is read by the scripts that source this file
vdpactl_aot_cache() {
    local dir=$1 backend=${VDPACTL_BACKEND:-auto} prev="" a
    shift
    for a in "$@"; do
        case $a in
            --backend=*) backend=${a#--backend=} ;;
            *) [ "$prev" = --backend ] && backend=$a ;;
        esac
        prev=$a
    done
    # Main's converter takes a backend name in any case, with blanks around it
    backend=${backend,,}
    backend=${backend//[[:space:]]/}
    if [ "$backend" = auto ]; then
        if [ -d /sys/bus/vdpa ] || compgen -G '/dev/vhost-vdpa-*' >/dev/null; then
            backend=kernel
        fi
    fi
    VDPACTL_AOT_CACHE=
    if [ "$backend" = kernel ] && [ -f "$dir/vdpactl-kernel.aot" ]; then
        VDPACTL_AOT_CACHE=$dir/vdpactl-kernel.aot
    elif [ -f "$dir/vdpactl.aot" ]; then
        VDPACTL_AOT_CACHE=$dir/vdpactl.aot
    fi
}
