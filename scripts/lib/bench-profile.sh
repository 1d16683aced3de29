#!/usr/bin/env bash
# Profiles for the goals a scripts/bench run missed (results/goals.txt, written by BenchReport's first
# pass): JFR recordings of the gap, summarised with `jfr view` into results/profile-*.md, which the
# report prints. Not meant to be run alone. Usage: bench-profile.sh BUILD JAVA RESULTS
set -euo pipefail
build=$1 java=$2 results=$3
goals="$results/goals.txt"
[ -f "$goals" ] || exit 0
jdk_bin=$(dirname "$java")
cp="$build/classes:$(cat "$build/jmh.classpath")"
work="$build/profiles"
rm -rf "$work"
mkdir -p "$work"
missed() { grep -q "^NOT MET  $1" "$goals"; }

# JFR views of every .jfr file under DIR as Markdown code blocks: VIEW=ROWS pairs (hot-methods=15 ...)
jfr_views() { # jfr_views DIR VIEW=ROWS...
  local dir=$1 f v
  shift
  for f in $(find "$dir" -name '*.jfr' | sort); do
    echo "JFR recording of \`$(basename "$(dirname "$f")")\`: $("$jdk_bin/jfr" summary "$f" | awk '
      $1 == "jdk.ExecutionSample" { j = $2 } $1 == "jdk.NativeMethodSample" { n = $2 }
      END { printf "%d Java execution samples, %d native-method samples", j, n }')."
    echo
    for v in "$@"; do
      echo '```'
      "$jdk_bin/jfr" view --width 150 "${v%%=*}" "$f" | sed '/^[[:space:]]*$/d' | sed -n "1,$((${v#*=} + 3))p"
      echo '```'
      echo
    done
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
    echo "A FIONREAD round trip is ~100-200 ns, almost all of it in the kernel and the thread-state transition: JFR"
    echo "finds the benchmark thread in the native downcall in most samples (native-methods) and sees only the few"
    echo "Java frames around it (hot-methods). The factor benchmark \`bareFfmThreadLocalCapture\` in section 1"
    echo "isolates the one thing the seam does besides the call (the per-thread errno buffer)."
    echo
    echo "Command: \`\$JAVA_HOME/bin/java -cp ... org.openjdk.jmh.Main 'IoctlBench\\.(seam|bareFfmWithErrnoCapture)\$' -f 1 -wi 2 -i 3 -prof jfr\`"
    echo
    jfr_views "$work/ioctl" hot-methods=8 native-methods=3
  } >"$results/profile-1-ioctl.md"
fi

if missed "IOTLB plan"; then
  jmh_jfr iotlb 'IotlbBench\.planEncodeWrite$'
  {
    echo "### Profile: IOTLB plan + encode + write into the fake"
    echo
    echo "Command: \`\$JAVA_HOME/bin/java -cp ... org.openjdk.jmh.Main 'IotlbBench\\.planEncodeWrite\$' -f 1 -wi 2 -i 3 -prof jfr\`"
    echo
    jfr_views "$work/iotlb" hot-methods=20 allocation-by-class=8
  } >"$results/profile-2-iotlb.md"
fi

if missed "IOTLB into the real device" && [ -d "$build/vm-profiles" ]; then
  {
    echo "### Profile: IOTLB writes into the real device (VM lane)"
    echo
    echo "Recorded in the guest by \`VhostDeviceBench.iotlbMapUnmap\` with \`-prof jfr\`. Section 1 and section 2 break the"
    echo "per-call difference down on real hardware: the \"C, 2 threads\" yardsticks are what the kernel itself charges a"
    echo "multi-threaded process (fdget takes a file reference), \`bareFfmCritical\` what the thread-state transition"
    echo "costs, and the JFR views below where the Java side of a write spends its time."
    echo
    jfr_views "$build/vm-profiles" hot-methods=15 native-methods=3
  } >"$results/profile-5-vm-iotlb.md"
fi

if missed "start-up archive"; then
  # where a start-up goes: the JVM's own phases, and what still loads from the jar instead of the archive
  measured=(--version)
  if grep -q '^vdpactl --backend fake dev list' "$results/startup-measured.txt" 2>/dev/null; then
    measured=(--backend fake --fake-state "$work/fake-state.json" dev list)
  fi
  shown=$(head -n1 "$results/startup-measured.txt" 2>/dev/null || echo "vdpactl ${measured[*]}")
  base=(-XX:TieredStopAtLevel=1 -XX:+UseSerialGC)
  jar="$build/vdpactl-0.1.0-all.jar"
  archive=()
  [ -f "$build/vdpactl.aot" ] && archive=(-XX:AOTCache="$build/vdpactl.aot")
  [ -f "$build/vdpactl.jsa" ] && archive=(-XX:SharedArchiveFile="$build/vdpactl.jsa")
  mkdir -p "$work/startup"
  "$java" "${base[@]}" "${archive[@]}" -Xlog:startuptime -Xlog:class+load:file="$work/classes.log" -jar "$jar" "${measured[@]}" \
    >"$work/startuptime.log" 2>&1 || true
  "$java" "${base[@]}" "${archive[@]}" -XX:StartFlightRecording:filename="$work/startup/startup.jfr",settings=profile \
    -jar "$jar" "${measured[@]}" >/dev/null 2>&1 || true
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
    jfr_views "$work/startup" hot-methods=12
  } >"$results/profile-4-startup.md"
fi
