#!/usr/bin/env bash
# Part "classes" of scripts/bench: where a command's start-up goes, counted in classes (a measure the
# machine's load does not change). Each command of the CLI runs once per variant with -Xlog:class+load;
# the classes are counted per package and by where they came from (the JDK's or the build's archive,
# or loaded, parsed and verified from a jar / generated at run time). BenchReport groups the packages
# into phases (JVM, picocli, Jackson, the fake, ...). Not meant to be run alone.
# Usage: bench-classes.sh BUILD JAVA JDK_MAJOR RESULTS
set -euo pipefail
build=$1 java=$2 major=$3 results=$4
# shellcheck source=project.sh
. "$(dirname "${BASH_SOURCE[0]}")/project.sh"
jar="$build/vdpactl-$(vdpactl_version)-all.jar"
work="$build/classes-part"
rm -rf "$work"
mkdir -p "$work"
# each command gets the JVM flags and the cache its launcher gives it (scripts/lib/aot-cache.sh: the kernel's
# commands their own cache; every command here is a short one, so the flags are the same for all)
# shellcheck source=aot-cache.sh
. "$(dirname "${BASH_SOURCE[0]}")/aot-cache.sh"
vdpactl_jvm_flags dev list
base=("${VDPACTL_JVM_FLAGS[@]}")
[ "$major" -ge 24 ] && base+=(--sun-misc-unsafe-memory-access=allow)
out="$results/classes.txt"
: >"$out"
# COMMAND-NAME|vdpactl's arguments (the fake's state in this part's own folder); hello is the JVM hello
commands=(
    "hello"
    "version|--version"
    "kernel-dev-list|--backend|kernel|dev|list"
    "fake-dev-list|--backend|fake|--fake-state|$work/fake-state.json|dev|list"
)
# the fake's state exists before it is measured, as on a machine where vdpactl ran before
# (a device added: a read-only command such as dev list creates no state file)
"$java" "${base[@]}" -jar "$jar" --backend fake --fake-state "$work/fake-state.json" dev add bench0 --mgmtdev vdpasim_net \
    >/dev/null 2>&1 || true
for c in "${commands[@]}"; do
    IFS='|' read -r -a words <<<"$c"
    name=${words[0]}
    for variant in default build-archive; do
        flags=("${base[@]}")
        # the jar as the launchers run it, on the cache or without (aot-cache.sh: vdpactl_main_args)
        cache=""
        if [ "$variant" = build-archive ]; then
            [ "$name" = hello ] && continue
            vdpactl_aot_cache "$build" "${words[@]:1}"
            cache=$VDPACTL_AOT_CACHE
            [ -n "$cache" ] || continue
            vdpactl_aot_flags "$cache"
            flags+=("${VDPACTL_AOT_FLAGS[@]}" -Xlog:cds=off)
        fi
        vdpactl_main_args "$jar" "$cache"
        run=("${VDPACTL_MAIN_ARGS[@]}" "${words[@]:1}")
        [ "$name" = hello ] && run=(-cp "$build/classes" org.vdpactl.bench.startup.Hello)
        log="$work/$name-$variant.log"
        status=0
        "$java" "${flags[@]}" "-Xlog:class+load:file=$log" "${run[@]}" >/dev/null 2>&1 || status=$?
        # one line per package: VARIANT COMMAND EXIT PACKAGE ALL NOT-FROM-AN-ARCHIVE
        awk -v v="$variant" -v c="$name" -v s="$status" '/\[class,load\]/ {
                cls = $2; pkg = cls; sub(/\.[^.]*$/, "", pkg); if (pkg == cls) pkg = "(default)"
                all[pkg]++; if ($0 !~ /source: shared objects file/) jar[pkg]++ }
            END { for (p in all) printf "%s %s %s %s %d %d\n", v, c, s, p, all[p], jar[p] }' "$log" | sort -k4 >>"$out"
        # what the JVM still had to make or read at run time, by kind (one line per kind: generated VARIANT COMMAND KIND COUNT):
        # FFM downcall stubs (one per distinct downcall shape), lambda forms, proxies (annotations read by reflection),
        # pattern-switch classes, lambdas, and classes read from jars
        awk -v v="$variant" -v c="$name" '/\[class,load\]/ && !/source: shared objects file/ {
                k = "jar"
                if ($2 ~ /DowncallStub\//) k = "downcall-stub"
                else if ($2 ~ /LambdaForm\$/) k = "lambda-form"
                else if ($0 ~ /__dynamic_proxy__/) k = "proxy"
                else if ($2 ~ /\$\$TypeSwitch\//) k = "type-switch"
                else if ($2 ~ /\$\$Lambda\//) k = "lambda"
                else if ($2 ~ /\/0x/) k = "other-hidden"
                n[k]++ }
            END { for (k in n) printf "generated %s %s %s %d\n", v, c, k, n[k] }' "$log" | sort >>"$out"
    done
done
