#!/usr/bin/env bash
# Part (4) of scripts/bench: wall and CPU time of vdpactl command lines, JVM start to exit, with and without the
# start-up archive that `mvn package` trains (org.vdpactl.packaging.ReleaseFiles), through the build's jar and the
# release archive's launcher, next to a JVM that prints "hi" (the yardstick of the CPU goals), all interleaved
# round by round. Not meant to be run alone.
# Usage: bench-startup.sh BUILD JAVA JDK_MAJOR RESULTS ROUNDS WARMUP_ROUNDS
set -euo pipefail
build=$1 java=$2 major=$3 results=$4 rounds=$5 warmup=$6
# shellcheck source=project.sh
. "$(dirname "${BASH_SOURCE[0]}")/project.sh"
version=$(vdpactl_version)
jar="$build/vdpactl-$version-all.jar"
work="$build/startup"
rm -rf "$work"
mkdir -p "$work"

# the launchers' own flags and caches (scripts/lib/aot-cache.sh, which both launchers source): every command line
# measured here is a short one, so they are the same for all (the hello and the floors too)
# shellcheck source=aot-cache.sh
. "$(dirname "${BASH_SOURCE[0]}")/aot-cache.sh"
vdpactl_jvm_flags dev list
base=("${VDPACTL_JVM_FLAGS[@]}")
[ "$major" -ge 24 ] && base+=(--sun-misc-unsafe-memory-access=allow)
jdk_bin=$(dirname "$java")
args=(--backend fake --fake-state "$work/fake-state.json" dev list)
# the fake's state exists before it is measured, as on a machine where vdpactl ran before (a device added: a
# read-only command such as dev list creates no state file)
"$java" "${base[@]}" -jar "$jar" --backend fake --fake-state "$work/fake-state.json" dev add bench0 --mgmtdev vdpasim_net \
    >/dev/null 2>&1 || true
if "$java" "${base[@]}" -jar "$jar" "${args[@]}" >"$work/probe.log" 2>&1; then
    measured="vdpactl --backend fake dev list"
else
    args=(--version)
    measured="vdpactl --version (the CLI has no \`dev list\` at this commit)"
fi
echo "$measured" >"$results/startup-measured.txt"

# the jar run as the launchers run it: -jar without a cache (aot-cache.sh: vdpactl_main_args)
vdpactl_main_args "$jar" ""
on_jar=("${VDPACTL_MAIN_ARGS[@]}") on_cache=("${VDPACTL_MAIN_ARGS[@]}")
if [ -f "$build/vdpactl.aot" ]; then
    # as the launchers run on a cache (aot-cache.sh: vdpactl_aot_flags, vdpactl_main_args), for every cache measured here
    vdpactl_aot_flags "$build/vdpactl.aot"
    archive=("${VDPACTL_AOT_FLAGS[@]}")
    vdpactl_main_args "$jar" "$build/vdpactl.aot"
    on_cache=("${VDPACTL_MAIN_ARGS[@]}")
elif [ -f "$build/vdpactl.jsa" ]; then
    archive=(-XX:SharedArchiveFile="$build/vdpactl.jsa")
else
    echo "the build wrote no start-up archive (see $build/release/aot-training/training.log)" >"$results/skipped-startup.txt"
    exit 0
fi

# the same jar with picocli's class files as published (Java 5), and an archive trained on it: shows what
# the build's class-file modernisation is for
old_jar="$work/vdpactl-all-java5-picocli.jar"
cp "$jar" "$old_jar"
picocli_jar=$(tr ':' '\n' <"$build/jmh.classpath" | grep '/picocli-[0-9][^/]*\.jar$' | head -n1)
mkdir -p "$work/picocli"
(cd "$work/picocli" && "$jdk_bin/jar" xf "$picocli_jar" picocli)
"$jdk_bin/jar" uf "$old_jar" -C "$work/picocli" picocli
old_archive=()
# every AOT cache here is trained as the build trains its own: without JDK 25's method profiles, which a C1-only JVM
# replays at start for nothing (org.vdpactl.packaging.ReleaseFiles.NO_PROFILES)
no_profiles=(-XX:+UnlockDiagnosticVMOptions -XX:-AOTRecordTraining)
old_on_cache=()
# trained as the build trains its own (org.vdpactl.packaging.ReleaseFiles): the CLI runs the build's batch of commands
batch="$build/release/aot-training/training.batch"
if [ "$major" -ge 25 ] && [ -f "$batch" ]; then
    # a failing command of the batch is still training (--force), as in the build: the archive decides
    vdpactl_main_args "$old_jar" "$work/java5-picocli.aot"
    old_on_cache=("${VDPACTL_MAIN_ARGS[@]}")
    # the jar run as on the cache: the JVM refuses a cache trained with other module options or another class path
    "$java" "${base[@]}" "${no_profiles[@]}" -XX:AOTCacheOutput="$work/java5-picocli.aot" "${old_on_cache[@]}" \
        --batch "$batch" --force >"$work/java5-picocli-training.log" 2>&1 || true
    if [ -f "$work/java5-picocli.aot" ]; then
        vdpactl_aot_flags "$work/java5-picocli.aot"
        old_archive=("${VDPACTL_AOT_FLAGS[@]}")
    fi
fi

# the release archive as a user unpacks it; its launcher writes its CDS archive on the first run
tar -xzf "$build/vdpactl-$version.tar.gz" -C "$work"
launcher="$work/vdpactl-$version/bin/vdpactl"
release_env=(env "XDG_CACHE_HOME=$work/cache")
"${release_env[@]}" "$launcher" "${args[@]}" >/dev/null

us=$'\x1f'
join() { local IFS=$us; printf '%s' "$*"; }
# the floors (docs/benchmarks.md "what the JVM itself costs"): small programs doing a part of a vdpactl command, each
# in a jar with an AOT cache trained on itself (an archive takes jars only), timed beside the JVM hello. picocli's
# classes come from the build's jar, modernised as vdpactl's are, so the archive can keep them linked.
floor_jar="$work/floors.jar"
mkdir -p "$work/floors"
(cd "$work/floors" && "$jdk_bin/jar" xf "$jar" picocli)
mkdir -p "$work/floors/org/vdpactl/bench/startup"
for c in Hello PicocliHello NetlinkHello KernelListHello FakeListHello; do
    for k in "$build/classes/org/vdpactl/bench/startup/$c.class" "$build/classes/org/vdpactl/bench/startup/$c\$"*.class; do
        if [ -f "$k" ]; then cp "$k" "$work/floors/org/vdpactl/bench/startup/"; fi
    done
done
"$jdk_bin/jar" cf "$floor_jar" -C "$work/floors" .
floor_variants=()
if [ "$major" -ge 25 ]; then
    # floor-kernel: what `--backend kernel dev list` must do (a picocli command line and the netlink question);
    # floor-fake: what `--backend fake dev list` must do (picocli, the state file read, an in-process netlink dump)
    for f in hello-aot:Hello floor-picocli:PicocliHello floor-netlink:NetlinkHello floor-kernel:KernelListHello floor-fake:FakeListHello; do
        name=${f%%:*} main=org.vdpactl.bench.startup.${f#*:}
        flags=("${base[@]}") floor_args=() status=""
        case "$name" in floor-netlink | floor-kernel) flags+=(--enable-native-access=ALL-UNNAMED) ;; esac
        [ "$name" = floor-fake ] && floor_args=(--state "$work/fake-state.json")
        # it answers as vdpactl does, 0 with the vdpa family and 8 without: the timer checks it (kernel_status below)
        [ "$name" = floor-kernel ] && floor_args=(dev list) status=":kernel"
        "$java" "${flags[@]}" "${no_profiles[@]}" -XX:AOTCacheOutput="$work/$name.aot" -cp "$floor_jar" "$main" "${floor_args[@]}" \
            >"$work/$name-training.log" 2>&1 || true
        if [ -f "$work/$name.aot" ]; then
            vdpactl_aot_flags "$work/$name.aot"
            floor_variants+=("$name$status" "$(join "$java" "${flags[@]}" "${VDPACTL_AOT_FLAGS[@]}" -cp "$floor_jar" "$main" "${floor_args[@]}")")
        fi
    done
fi

kernel_args=(--backend kernel dev list)
# the cache the launchers give the kernel's command (scripts/lib/aot-cache.sh: the kernel's commands their own)
kernel_archive=("${archive[@]}") version_archive=("${archive[@]}")
kernel_on_cache=("${on_cache[@]}") version_on_cache=("${on_cache[@]}")
if [ "$major" -ge 25 ]; then
    vdpactl_aot_cache "$build" "${kernel_args[@]}"
    vdpactl_aot_flags "$VDPACTL_AOT_CACHE"
    kernel_archive=("${VDPACTL_AOT_FLAGS[@]}")
    vdpactl_main_args "$jar" "$VDPACTL_AOT_CACHE"
    kernel_on_cache=("${VDPACTL_MAIN_ARGS[@]}")
    vdpactl_aot_cache "$build" --version
    vdpactl_aot_flags "$VDPACTL_AOT_CACHE"
    version_archive=("${VDPACTL_AOT_FLAGS[@]}")
    vdpactl_main_args "$jar" "$VDPACTL_AOT_CACHE"
    version_on_cache=("${VDPACTL_MAIN_ARGS[@]}")
fi
# the kernel's answer on this host: 0 with vdpa, 8 (environment not ready) without it; the timer checks it
kernel_status=0
"$java" "${base[@]}" -jar "$jar" "${kernel_args[@]}" >/dev/null 2>&1 || kernel_status=$?
variants=(
    "hello=$(join "$java" "${base[@]}" -cp "$build/classes" org.vdpactl.bench.startup.Hello)"
    "default=$(join "$java" "${base[@]}" "${on_jar[@]}" "${args[@]}")"
    "build-archive=$(join "$java" "${base[@]}" "${archive[@]}" "${on_cache[@]}" "${args[@]}")"
)
((${#old_archive[@]})) && variants+=("build-archive-java5-picocli=$(join "$java" "${base[@]}" "${old_archive[@]}" "${old_on_cache[@]}" "${args[@]}")")
variants+=(
    "xshare-off=$(join "$java" "${base[@]}" -Xshare:off "${on_jar[@]}" "${args[@]}")"
    "release-launcher=$(join "${release_env[@]}" "$launcher" "${args[@]}")"
    "release-launcher-no-cds=$(join "${release_env[@]}" VDPACTL_NO_CDS=1 "$launcher" "${args[@]}")"
    "version=$(join "$java" "${base[@]}" "${version_archive[@]}" "${version_on_cache[@]}" --version)"
    "version-no-cds=$(join "$java" "${base[@]}" "${on_jar[@]}" --version)"
    "release-launcher-version=$(join "${release_env[@]}" "$launcher" --version)"
    "kernel:$kernel_status=$(join "$java" "${base[@]}" "${kernel_archive[@]}" "${kernel_on_cache[@]}" "${kernel_args[@]}")"
    "kernel-no-cds:$kernel_status=$(join "$java" "${base[@]}" "${on_jar[@]}" "${kernel_args[@]}")"
    "release-launcher-kernel:$kernel_status=$(join "${release_env[@]}" "$launcher" "${kernel_args[@]}")"
)
for ((i = 0; i < ${#floor_variants[@]}; i += 2)); do
    variants+=("${floor_variants[i]/%:kernel/:$kernel_status}=${floor_variants[i + 1]}")
done

# how many classes each variant still loads and verifies from jar files (not from an archive)
: >"$results/startup-classes.properties"
for v in "${variants[@]}"; do
    name=${v%%=*}
    name=${name%%:*}
    IFS=$us read -r -a cmd <<<"${v#*=}"
    log="$work/classes-$name.log"
    if [ "${cmd[0]}" = env ]; then
        VDPACTL_JAVA_OPTS="-Xlog:class+load:file=$log" "${cmd[@]}" >/dev/null 2>&1 || true
    else
        "${cmd[0]}" "-Xlog:class+load:file=$log" "${cmd[@]:1}" >/dev/null 2>&1 || true
    fi
    echo "$name=$(grep 'source:' "$log" | grep -vc 'shared objects file' || true)" >>"$results/startup-classes.properties"
done

cp_bench="$build/classes:$(cat "$build/jmh.classpath")"
printf 'startup=%s\n' "\$JAVA_HOME/bin/java -cp \"\$BUILD/classes:\$(cat \$BUILD/jmh.classpath)\" org.vdpactl.bench.startup.StartupTimer \$BUILD/results/startup.json $rounds $warmup <variants below>" \
    >>"$results/commands.properties"
echo "== bench: start-up, $rounds rounds of ${#variants[@]} variants: $measured" >&2
"$java" -cp "$cp_bench" org.vdpactl.bench.startup.StartupTimer "$results/startup.json" "$rounds" "$warmup" "${variants[@]}"
