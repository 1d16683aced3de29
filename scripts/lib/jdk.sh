# shellcheck shell=bash
# Finds a JDK >= 22 for vdpactl's scripts: JAVA_HOME if it is one, else the newest under the
# usual JVM folder. Sets VDPACTL_JAVA_HOME or fails with a clear message.

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
