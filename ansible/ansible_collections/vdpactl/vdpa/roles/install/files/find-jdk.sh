#!/bin/sh
# Prints the newest JDK >= $1 on this host (JAVA_HOME first, then the folders given after it), or
# fails with one line saying what was looked at. Same rule as vdpactl's launcher (lib/jdk.sh).
min=$1
shift
major() {
  v=$(sed -n 's/^JAVA_VERSION="\([0-9][0-9]*\).*/\1/p' "$1/release" 2>/dev/null | head -n1)
  [ "$v" = "1" ] && v=8
  printf '%s' "$v"
}
if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/javac" ]; then
  v=$(major "$JAVA_HOME")
  if [ -n "$v" ] && [ "$v" -ge "$min" ]; then
    echo "$JAVA_HOME"
    exit 0
  fi
fi
best="" best_v=0
for dir in "$@"; do
  for d in "$dir"/*/; do
    d=${d%/}
    [ -x "$d/bin/javac" ] || continue
    v=$(major "$d")
    [ -n "$v" ] || continue
    if [ "$v" -ge "$min" ] && [ "$v" -gt "$best_v" ]; then
      best=$d
      best_v=$v
    fi
  done
done
if [ -z "$best" ]; then
  echo "no JDK >= $min on this host (JAVA_HOME=${JAVA_HOME:-unset}; looked in $*): install one (e.g. openjdk-25-jdk or Temurin 25) or set vdpactl_java_home" >&2
  exit 1
fi
echo "$best"
