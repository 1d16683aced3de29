# shellcheck shell=bash
# Facts of the project that scripts need, read from the pom so that they exist in one place.

# Prints the project version (the <version> of pom.xml's project, e.g. 0.1.0) of the checkout at $1
# (default: the checkout this file is in); the jar and archive names of `mvn package` carry it.
vdpactl_version() {
    local root=${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)} v
    # the project's own <version> is the only one indented by two spaces (dependencies and plugins nest deeper)
    v=$(sed -n 's|^  <version>\([^<]*\)</version>.*|\1|p' "$root/pom.xml" | head -n1)
    if [ -z "$v" ]; then
        echo "vdpactl: no project <version> in $root/pom.xml" >&2
        return 1
    fi
    printf '%s\n' "$v"
}
