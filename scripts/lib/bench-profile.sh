#!/usr/bin/env bash
# Profiles for the goals a scripts/bench run missed (results/goals.txt, written by BenchReport's first
# pass): JFR recordings of the gap, summarised with `jfr view` into results/profile-*.md, which the
# report prints. Not meant to be run alone. Usage: bench-profile.sh BUILD JAVA RESULTS
set -euo pipefail
build=$1 java=$2 results=$3
# shellcheck source=project.sh
. "$(dirname "${BASH_SOURCE[0]}")/project.sh"
goals="$results/goals.txt"
[ -f "$goals" ] || exit 0
cp="$build/classes:$(cat "$build/jmh.classpath")"
work="$build/profiles"
rm -rf "$work"
mkdir -p "$work"
missed() { grep -q "^NOT MET  $1" "$goals"; }

# where the working thread of every .jfr file under DIR spent its samples (BenchReport's JfrSummary)
jfr_summary() { # jfr_summary DIR THREAD-NAME-PART ROWS
    local f
    for f in $(find "$1" -name '*.jfr' | sort); do
        echo "JFR recording of \`$(basename "$(dirname "$f")")\`:"
        echo
        "$java" -cp "$cp" org.vdpactl.bench.report.JfrSummary "$f" "$2" "$3"
    done
}

jmh_jfr() { # jmh_jfr NAME BENCHMARK-REGEX: one fork with JMH's JFR profiler into $work/NAME
    echo "== bench: JFR profile of $2" >&2
    "$java" -cp "$cp" org.openjdk.jmh.Main "$2" -f 1 -wi 2 -i 3 -prof "jfr:dir=$work/$1" >"$work/$1.log" 2>&1
}

if missed "seam ioctl"; then
    jmh_jfr ioctl 'IoctlBench\.(seam|bareFfmWithErrnoCapture)$'
    {
        echo "### Profile: the seam's ioctl against the bare handle"
        echo
        echo "A FIONREAD round trip is ~200 ns, almost all of it in the downcall (native function, kernel, thread-state"
        echo "transition); JFR sees the Java frames around it only now and then. The factor benchmarks of section 1"
        echo "(\`bareFfmAutoArenaCapture\`, \`bareFfmThreadLocalCapture\`) measure what JFR cannot resolve."
        echo
        echo "Command: \`\$JAVA_HOME/bin/java -cp ... org.openjdk.jmh.Main 'IoctlBench\\.(seam|bareFfmWithErrnoCapture)\$' -f 1 -wi 2 -i 3 -prof jfr\`"
        echo
        jfr_summary "$work/ioctl" jmh-worker 6
    } >"$results/profile-1-ioctl.md"
fi

if missed "IOTLB plan"; then
    jmh_jfr iotlb 'IotlbBench\.planEncodeWrite$'
    {
        echo "### Profile: IOTLB plan + encode + write into the fake"
        echo
        echo "Command: \`\$JAVA_HOME/bin/java -cp ... org.openjdk.jmh.Main 'IotlbBench\\.planEncodeWrite\$' -f 1 -wi 2 -i 3 -prof jfr\`"
        echo
        jfr_summary "$work/iotlb" jmh-worker 15
    } >"$results/profile-2-iotlb.md"
fi

if missed "IOTLB hot path"; then
    jmh_jfr iotlb-hot 'IotlbBench\.encodeWriteDevNull$'
    {
        echo "### Profile: the IOTLB hot path to /dev/null"
        echo
        echo "Where the benchmark thread's samples fall: JFR samples Java frames (the plan walk, encoding, the seam) and, for"
        echo "a thread in native code, the write downcall as a whole; the steps of the block above divide the downcall from the Java side by measurement."
        echo
        echo "Command: \`\$JAVA_HOME/bin/java -cp ... org.openjdk.jmh.Main 'IotlbBench\\.encodeWriteDevNull\$' -f 1 -wi 2 -i 3 -prof jfr\`"
        echo
        jfr_summary "$work/iotlb-hot" jmh-worker 12
    } >"$results/profile-2-iotlb-hot.md"
fi

if missed "IOTLB into the real device" && [ -d "$build/vm-profiles" ]; then
    {
        echo "### Profile: IOTLB writes into the real device (VM lane)"
        echo
        echo "Recorded in the guest by the JDK's flight recorder on the JMH process running \`VhostDeviceBench.iotlbMapUnmap\`"
        echo "(\`-f 0\`: the guest has no TCP/IP for JMH's forks, so the process's start-up and JMH's own work are sampled too)."
        echo "Where the benchmark thread spends its samples in native code, it is the write downcall; its Java samples are"
        echo "encoding and plan walking. Sections 1 and 2 take the downcall apart on real hardware: the \"C, 2 threads\" yardsticks"
        echo "are what the kernel charges any multi-threaded writer (fdget takes a file reference), \`bareFfmCritical\` what"
        echo "the thread-state transition costs; what remains is the downcall's own work (segment checks, session"
        echo "acquire/release, errno capture). Under TCG every instruction of it is emulated, so the ratio is an emulated"
        echo "CPU's (section 5's note)."
        echo
        jfr_summary "$build/vm-profiles" jmh-worker 8
    } >"$results/profile-5-vm-iotlb.md"
fi

if missed "start-up archive"; then
    # where a start-up goes: the JVM's own phases, and what still loads from the jar instead of the archive
    measured=(--version)
    if grep -q '^vdpactl --backend fake dev list' "$results/startup-measured.txt" 2>/dev/null; then
        measured=(--backend fake --fake-state "$work/fake-state.json" dev list)
    fi
    shown=$(head -n1 "$results/startup-measured.txt" 2>/dev/null || echo "vdpactl ${measured[*]}")
    # the launchers' flags (scripts/lib/aot-cache.sh)
    # shellcheck source=aot-cache.sh
    . "$(dirname "${BASH_SOURCE[0]}")/aot-cache.sh"
    vdpactl_jvm_flags "${measured[@]}"
    base=("${VDPACTL_JVM_FLAGS[@]}")
    jar="$build/vdpactl-$(vdpactl_version)-all.jar"
    archive=() cache=""
    if [ -f "$build/vdpactl.aot" ]; then
        cache=$build/vdpactl.aot
        vdpactl_aot_flags "$cache"
        archive=("${VDPACTL_AOT_FLAGS[@]}")
    elif [ -f "$build/vdpactl.jsa" ]; then
        archive=(-XX:SharedArchiveFile="$build/vdpactl.jsa")
    fi
    # the jar as the launchers run it, on the cache or without (aot-cache.sh: vdpactl_main_args)
    vdpactl_main_args "$jar" "$cache"
    mkdir -p "$work/startup"
    "$java" "${base[@]}" "${archive[@]}" -Xlog:startuptime -Xlog:class+load:file="$work/classes.log" "${VDPACTL_MAIN_ARGS[@]}" "${measured[@]}" \
        >"$work/startuptime.log" 2>&1 || true
    "$java" "${base[@]}" "${archive[@]}" -XX:StartFlightRecording:filename="$work/startup/startup.jfr",settings=profile \
        "${VDPACTL_MAIN_ARGS[@]}" "${measured[@]}" >/dev/null 2>&1 || true
    {
        echo "### Profile: CLI start-up with the build's archive"
        echo
        echo "The JVM's own start (\`-Xlog:startuptime\`, the phases over 1 ms) of \`$shown\` with the archive:"
        echo
        echo '```'
        sed -n 's/^\[[^]]*\]\[info\]\[startuptime\] *//p' "$work/startuptime.log" | awk -F', ' '$2 + 0 >= 0.001'
        echo '```'
        echo
        echo "Classes still loaded from jars or generated at run time (not from the archive), by package:"
        echo
        echo '```'
        grep 'source:' "$work/classes.log" | grep -v 'shared objects file' | sed 's/.*\] \([^ ]*\) source.*/\1/' \
            | sed 's/\.[^.]*$//' | sort | uniq -c | sort -rn | head -n 15
        echo '```'
        echo
        echo "A JFR recording of the same run (\`-XX:StartFlightRecording:settings=profile\`; JFR itself adds start-up work):"
        echo
        jfr_summary "$work/startup" main 12
    } >"$results/profile-4-startup.md"
fi
