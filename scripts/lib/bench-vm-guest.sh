#!/usr/bin/env bash
# The guest half of `scripts/bench --vm`: runs inside scripts/vm-run (QEMU with the lane's vdpa_sim
# kernel), next to the host's build directory. Times the same vhost-vdpa calls from C (vhost_loop, built
# on the host) and through the seam (JMH VhostDeviceBench), C before and after JMH.
# Not meant to be run alone. Usage: bench-vm-guest.sh BUILD JAVA [JMH OPTIONS...]
set -euo pipefail
build=$1 java=$2
shift 2
results="$build/results"
device=/dev/vhost-vdpa-0
benchmarks=(getFeatures getVringBase iotlbMapUnmap iotlbMapUnmapBareFfm iotlbPlanMapUnmap)
attempts=3
if [ ! -c "$device" ]; then
    echo "the guest has no $device (vdpa_sim device not created)." >"$results/skipped-vm.txt"
    exit 0
fi
# JVM crash reports (hs_err_pid*.log) land in the working directory: keep them with the results
mkdir -p "$results/vm-crashes"
cd "$results/vm-crashes"
cp="$build/classes:$(cat "$build/jmh.classpath")"
# with -f 0 (no TCP/IP in the guest for JMH's forks) the benchmarks run in this JVM: give it what
# VhostDeviceBench's @Fork would give the fork
jvm=(--enable-native-access=ALL-UNNAMED)
c_run="$build/c/vhost_loop $device 5"
{
    echo "vm.c=$c_run  # in the guest, before and after the JMH run"
    echo "vm.jmh=\$JAVA_HOME/bin/java ${jvm[*]} -cp \"\$BUILD/classes:\$(cat \$BUILD/jmh.classpath)\" org.openjdk.jmh.Main org.vdpactl.bench.VhostDeviceBench $* -rf json -rff $results/vm-jmh-N.json  # in the guest; N > 1: benchmarks whose JVM crashed, again"
} >>"$results/commands.properties"

echo "== bench (guest): C: $c_run" >&2
$c_run >"$results/vm-c.txt"
# JMH; a benchmark whose JVM died is run again (up to $attempts times in all): under TCG, JIT-compiled
# code now and then crashes right after it was installed, which the same code never does on the host
missing=("${benchmarks[@]}")
for ((n = 1; n <= attempts && ${#missing[@]} > 0; n++)); do
    regex="VhostDeviceBench\\.($(IFS='|'; echo "${missing[*]}"))\$"
    echo "== bench (guest): JMH attempt $n: ${missing[*]}" >&2
    "$java" "${jvm[@]}" -cp "$cp" org.openjdk.jmh.Main "$regex" "$@" -rf json -rff "$results/vm-jmh-$n.json" >"$results/vm-jmh-$n.json.log" 2>&1 || true
    grep -E '^VhostDeviceBench\.' "$results/vm-jmh-$n.json.log" >&2 || true
    still=()
    for b in "${missing[@]}"; do
        grep -q "\"org.vdpactl.bench.VhostDeviceBench.$b\"" "$results/vm-jmh-$n.json" 2>/dev/null || still+=("$b")
    done
    missing=("${still[@]+"${still[@]}"}")
done
$c_run >>"$results/vm-c.txt"
# a JVM that crashes leaves its hs_err file here (the working directory)
crashed=$(find . -maxdepth 1 -name 'hs_err_pid*.log' | wc -l)

if ((crashed == 0)); then
    crash_note="No JMH run crashed in this run."
else
    crash_note="JMH runs whose JVM crashed in this run: $crashed (SIGSEGV at the entry of freshly JIT-compiled JDK methods such as
\`ThreadLocal.get\` or \`SharedUtils.checkNative\`; hs_err files in \`\$BUILD/results/vm-crashes\`); each such benchmark ran again, up
to $attempts times in all. The same code runs billions of calls on the host without a crash, which points at the emulator's
handling of freshly written code, not at vdpactl.${missing[*]:+ Still missing after $attempts attempts: ${missing[*]}.}"
fi
cat >"$results/vm-notes.md" <<NOTES
Guest: $(uname -sr), $(nproc) vCPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n1) under QEMU TCG (an
emulated CPU: absolute times here are many times the host's and only the Java ÷ C ratios carry over), vdpa_sim
device \`$device\` (vdpasim_net). One operation of the IOTLB rows is a map/unmap cycle of 1024 one-page regions
of a shared memfd (2052 vhost_msg_v2 writes); its time is per message. C = src/bench/c/vhost_loop.c, its own
clock, single-threaded and then with a second (idle) thread; Java = \`VhostDeviceBench\` through \`PanamaSyscalls\`
(ioctls) and \`VhostVdpaDevice.apply\` (IOTLB); \`iotlbMapUnmapBareFfm\`, the IOTLB rows' floor for any FFM caller, encodes
the same messages and writes each through a bare downcall with errno captured (no plan walk, no check, no seam).

$crash_note
NOTES

# a JFR recording of the IOTLB writes, which the host summarises if that goal was missed (bench-profile.sh);
# the JDK's own recorder on the JMH process, since JMH's JFR profiler needs a fork
rm -rf "$build/vm-profiles"
mkdir -p "$build/vm-profiles/VhostDeviceBench.iotlbMapUnmap"
echo "== bench (guest): JFR recording of VhostDeviceBench.iotlbMapUnmap" >&2
"$java" "${jvm[@]}" -XX:StartFlightRecording:filename="$build/vm-profiles/VhostDeviceBench.iotlbMapUnmap/recording.jfr",settings=profile \
    -cp "$cp" org.openjdk.jmh.Main 'VhostDeviceBench\.iotlbMapUnmap$' -f 0 -i 3 >"$results/vm-jfr.log" 2>&1 || true
