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
if [ ! -c "$device" ]; then
  echo "the guest has no $device (vdpa_sim device not created)." >"$results/skipped-vm.txt"
  exit 0
fi
c_run="$build/c/vhost_loop $device 5"
jmh=("$java" -cp "$build/classes:$(cat "$build/jmh.classpath")" org.openjdk.jmh.Main 'org.vdpactl.bench.VhostDeviceBench'
  "$@" -rf json -rff "$results/vm-jmh-1.json")
{
  echo "vm.c=$c_run  # in the guest, before and after the JMH run"
  echo "vm.jmh=\$JAVA_HOME/bin/java -cp \"\$BUILD/classes:\$(cat \$BUILD/jmh.classpath)\" org.openjdk.jmh.Main org.vdpactl.bench.VhostDeviceBench $* -rf json -rff $results/vm-jmh-1.json  # in the guest"
} >>"$results/commands.properties"
cat >"$results/vm-notes.md" <<NOTES
Guest: $(uname -sr), $(nproc) vCPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n1) under QEMU TCG (an
emulated CPU: absolute times here are many times the host's and only the Java ÷ C ratios carry over), vdpa_sim
device \`$device\` (vdpasim_net). One operation of the IOTLB rows is a map/unmap cycle of 1024 one-page regions
of a shared memfd (2052 vhost_msg_v2 writes); its time is per message. C = src/bench/c/vhost_loop.c, its own
clock, single-threaded and then with a second (idle) thread; Java = \`VhostDeviceBench\` through \`PanamaSyscalls\`
(ioctls) and \`VhostVdpaDevice.apply\` (IOTLB).
NOTES
echo "== bench (guest): C: $c_run" >&2
$c_run >"$results/vm-c.txt"
echo "== bench (guest): JMH VhostDeviceBench" >&2
"${jmh[@]}" >"$results/vm-jmh-1.json.log" 2>&1 || { tail -n 40 "$results/vm-jmh-1.json.log" >&2; exit 1; }
grep -E '^VhostDeviceBench\.' "$results/vm-jmh-1.json.log" >&2 || true
$c_run >>"$results/vm-c.txt"
# a JFR recording of the IOTLB writes, which the host summarises if that goal was missed (bench-profile.sh)
echo "== bench (guest): JFR recording of VhostDeviceBench.iotlbMapUnmap" >&2
rm -rf "$build/vm-profiles"
"$java" -cp "$build/classes:$(cat "$build/jmh.classpath")" org.openjdk.jmh.Main 'VhostDeviceBench\.iotlbMapUnmap$' -f 1 -i 3 \
  -prof "jfr:dir=$build/vm-profiles" >"$results/vm-jfr.log" 2>&1 || echo "== bench (guest): the JFR recording failed" >&2
