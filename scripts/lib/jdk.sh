# shellcheck shell=bash
# Finds a JDK >= 22 for vdpactl's scripts: JAVA_HOME if it is one, else the newest under the
# usual JVM folder. vdpactl_use_jdk is the preamble of every script that runs Java or Maven.

vdpactl_jdk_major() {
    # prints the feature version of the JDK at $1 (e.g. 25), or nothing
    local home=$1 v=""
    if [ -r "$home/release" ]; then
        v=$(sed -n 's/^JAVA_VERSION="\([0-9][0-9]*\).*/\1/p' "$home/release" | head -n1)
    fi
    if [ -z "$v" ] && [ -x "$home/bin/java" ]; then
        v=$("$home/bin/java" -version 2>&1 | sed -n 's/.*version "\([0-9][0-9]*\).*/\1/p' | head -n1)
    fi
    [ "$v" = "1" ] && v=8
    printf '%s' "$v"
}

vdpactl_find_jdk() {
    local min=22 best="" best_v=0 v d
    if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/javac" ]; then
        v=$(vdpactl_jdk_major "$JAVA_HOME")
        if [ -n "$v" ] && [ "$v" -ge "$min" ]; then
            VDPACTL_JAVA_HOME=$JAVA_HOME
            return 0
        fi
        echo "vdpactl: JAVA_HOME=$JAVA_HOME is JDK ${v:-?}, older than $min; looking elsewhere" >&2
    fi
    for d in /usr/lib/jvm/*/ /usr/java/*/ /opt/java/*/ /opt/jdk*/; do
        d=${d%/}
        [ -x "$d/bin/javac" ] || continue
        v=$(vdpactl_jdk_major "$d")
        [ -n "$v" ] || continue
        if [ "$v" -ge "$min" ] && [ "$v" -gt "$best_v" ]; then
            best=$d
            best_v=$v
        fi
    done
    if [ -z "$best" ]; then
        echo "vdpactl: no JDK >= $min found (JAVA_HOME unset or too old, nothing suitable under /usr/lib/jvm)." >&2
        echo "vdpactl: install one (e.g. Temurin 25 or openjdk-25-jdk) and/or set JAVA_HOME." >&2
        return 1
    fi
    VDPACTL_JAVA_HOME=$best
}

# The preamble of every script that runs Java or Maven: finds a JDK >= 22 (vdpactl_find_jdk), exports it as
# JAVA_HOME and lets Maven's own sun.misc.Unsafe use (guava) run quietly on JDK 24+, which otherwise warns
# on every run. Returns non-zero, with the message already on stderr, when there is no such JDK.
vdpactl_use_jdk() {
    vdpactl_find_jdk || return 1
    export JAVA_HOME=$VDPACTL_JAVA_HOME
    if [ "$(vdpactl_jdk_major "$JAVA_HOME")" -ge 24 ]; then
        export MAVEN_OPTS="${MAVEN_OPTS:-} --sun-misc-unsafe-memory-access=allow"
    fi
}
