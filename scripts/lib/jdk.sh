# shellcheck shell=sh disable=SC3043 # "local": dash, busybox sh and bash all have it
# vdpactl's one JDK finder, for the launcher of the release archive, every script that runs Java or
# Maven, the real-kernel lane and (as a generated copy, roles/install/files/find-jdk.sh, written by
# scripts/regen-find-jdk) the Ansible install role. Plain sh: the role runs it with /bin/sh.
#
# The rule: JAVA_HOME when it is a JDK (it has bin/javac) of feature version MIN or newer; otherwise
# the newest such JDK directly inside one of the FOLDERS (the first one found among equals). A JDK's
# feature version is the JAVA_VERSION of its release file, else what its bin/java -version says.
VDPACTL_JDK_MIN=22
VDPACTL_JDK_FOLDERS="/usr/lib/jvm /usr/java /opt/java /opt"

vdpactl_jdk_major() {
    # prints the feature version of the JDK at $1 (e.g. 25), or nothing. The release file is read by the shell
    # itself: every launcher start asks this, and a sed | head pipeline cost two processes of start-up each time.
    local home="$1" v="" line
    if [ -r "$home/release" ]; then
        while IFS= read -r line || [ -n "$line" ]; do
            case $line in
                JAVA_VERSION=\"[0-9]*)
                    v=${line#JAVA_VERSION=\"}
                    v=${v%%[!0-9]*}
                    break ;;
            esac
        done <"$home/release"
    fi
    if [ -z "$v" ] && [ -x "$home/bin/java" ]; then
        v=$("$home/bin/java" -version 2>&1 | sed -n 's/.*version "\([0-9][0-9]*\).*/\1/p' | head -n1)
    fi
    [ "$v" = "1" ] && v=8
    printf '%s' "$v"
}

# vdpactl_find_jdk [MIN [FOLDER...]]: sets VDPACTL_JAVA_HOME to the JDK the rule picks (defaults:
# VDPACTL_JDK_MIN, VDPACTL_JDK_FOLDERS), or returns 1 with the reason on stderr.
vdpactl_find_jdk() {
    local min best="" best_v=0 v d dir
    min=${1:-$VDPACTL_JDK_MIN}
    [ $# -gt 0 ] && shift
    # shellcheck disable=SC2086 # the default folders are a list
    [ $# -gt 0 ] || set -- $VDPACTL_JDK_FOLDERS
    if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/javac" ]; then
        v=$(vdpactl_jdk_major "$JAVA_HOME")
        if [ -n "$v" ] && [ "$v" -ge "$min" ]; then
            VDPACTL_JAVA_HOME=$JAVA_HOME
            return 0
        fi
        echo "vdpactl: JAVA_HOME=$JAVA_HOME is JDK ${v:-?}, older than $min; looking elsewhere" >&2
    fi
    for dir in "$@"; do
        for d in "$dir"/*/; do
            d=${d%/}
            [ -x "$d/bin/javac" ] || continue
            v=$(vdpactl_jdk_major "$d")
            [ -n "$v" ] || continue
            if [ "$v" -ge "$min" ] && [ "$v" -gt "$best_v" ]; then
                best=$d
                best_v=$v
            fi
        done
    done
    if [ -z "$best" ]; then
        v="JAVA_HOME unset"
        [ -n "${JAVA_HOME:-}" ] && v="JAVA_HOME=$JAVA_HOME is no JDK >= $min"
        echo "vdpactl: no JDK >= $min found ($v, nothing suitable in $*)." >&2
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
    export JAVA_HOME="$VDPACTL_JAVA_HOME"
    if [ "$(vdpactl_jdk_major "$JAVA_HOME")" -ge 24 ]; then
        export MAVEN_OPTS="${MAVEN_OPTS:-} --sun-misc-unsafe-memory-access=allow"
    fi
}
