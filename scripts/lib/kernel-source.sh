# shellcheck shell=bash
# Shared helper: locate (and if needed fetch) the Debian "linux-source-<version>" tarball of
# one kernel of the real-kernel lane's matrix. Source this file from bash scripts; it defines
# functions only and does not change shell options.
#
# The matrix (kernel ids, profiles, packages, apt suites) is scripts/vm/lane-matrix.tsv, read here:
#   a kernel of the "host" suite comes from the host's apt sources (6.12 from bookworm-security);
#   one of the "unstable" suite (sid) is the newest kernel source Debian ships: the package
#          linux-source-N.M that the "linux-source" metapackage of the unstable suite depends on. Looked up in a PRIVATE
#          apt directory (cache/apt-unstable/) whose sources list is derived from the host's own
#          (scripts/lib/apt-unstable-sources.py: same mirrors, suite changed to unstable); the
#          host's apt state is never touched. The first lookup writes cache/ID.pin
#          ("<package> <version>"), and every later run uses exactly that version until
#          VDPACTL_SID_REFRESH=1 (or deleting the pin) asks for the newest again.
#
#   vdpactl_lane_kernel             prints the selected kernel id (VDPACTL_LANE_KERNEL, default: the
#                                   matrix's "default" kernel)
#   vdpactl_lane_kernel_ids         prints every kernel id of the matrix, one a line, oldest first
#   vdpactl_lane_default_kernel     prints the matrix's default kernel id
#   vdpactl_lane_matrix_get ID COL  prints one column (profile, package, suite, role) of a kernel's line
#   vdpactl_kernel_source_pkg       prints the Debian package name for the selected kernel
#   vdpactl_kernel_source_tarball   prints the path of the linux-source tarball, fetching it
#   vdpactl_kernel_source_version   prints the Debian package version used
#   vdpactl_cache_dir               prints the cache directory
#
# Environment:
#   VDPACTL_CACHE_DIR              cache root (default ${XDG_CACHE_HOME:-$HOME/.cache}/vdpactl)
#   VDPACTL_LANE_KERNEL            a kernel id of the matrix (default: its "default" kernel)
#   VDPACTL_KERNEL_SOURCE_PKG      Debian package name (overrides the kernel id's package)
#   VDPACTL_KERNEL_SOURCE_TARBALL  use this existing linux-source tarball, download nothing
#   VDPACTL_SID_REFRESH=1          look up the newest unstable kernel source again
#
# The .deb is obtained with `apt-get download` (the distribution's own package client; the
# host's apt sources decide where from) and unpacked with dpkg-deb.
# All messages go to stderr; only the result goes to stdout.

VDPACTL_KSRC_LIB_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

vdpactl_cache_dir() {
    printf '%s\n' "${VDPACTL_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/vdpactl}"
}

VDPACTL_LANE_MATRIX="$(dirname "$VDPACTL_KSRC_LIB_DIR")/vm/lane-matrix.tsv"

# The matrix's kernel lines (comments and blank lines dropped).
vdpactl__lane_matrix() {
    grep -v -e '^[[:space:]]*#' -e '^[[:space:]]*$' "$VDPACTL_LANE_MATRIX"
}

vdpactl_lane_kernel_ids() {
    vdpactl__lane_matrix | awk '{ print $1 }'
}

vdpactl_lane_default_kernel() {
    vdpactl__lane_matrix | awk '$5 == "default" { print $1 }'
}

# vdpactl_lane_matrix_get ID COLUMN: one column (profile, package, suite, role) of kernel ID's line.
vdpactl_lane_matrix_get() {
    local col
    case "$2" in
        profile) col=2 ;; package) col=3 ;; suite) col=4 ;; role) col=5 ;;
        *) echo "kernel-source: no column '$2' in $VDPACTL_LANE_MATRIX" >&2; return 1 ;;
    esac
    vdpactl__lane_matrix | awk -v id="$1" -v c="$col" '$1 == id { print $c; found = 1 } END { exit !found }'
}

# Succeeds when ID is a kernel of the matrix; otherwise says which ones are (prefixed by PROG).
vdpactl_lane_kernel_known() {
    local id=$1 prog=${2:-kernel-source}
    if ! vdpactl_lane_kernel_ids | grep -qxF -- "$id"; then
        echo "$prog: unknown lane kernel '$id' (known: $(vdpactl_lane_kernel_ids | paste -sd, | sed 's/,/, /g'))" >&2
        return 1
    fi
}

vdpactl_lane_kernel() {
    local id="${VDPACTL_LANE_KERNEL:-$(vdpactl_lane_default_kernel)}"
    vdpactl_lane_kernel_known "$id" && printf '%s\n' "$id"
}

# True when kernel ID's source comes from the private unstable apt directory.
vdpactl__lane_kernel_unstable() {
    [[ "$(vdpactl_lane_matrix_get "$1" suite)" == unstable ]]
}

# ---------------------------------------------------------------- private apt (unstable)
vdpactl__apt_unstable_dir() {
    printf '%s/apt-unstable\n' "$(vdpactl_cache_dir)"
}

# apt-get/apt-cache options that point every apt path at the private directory.
vdpactl__apt_unstable_opts() {
    vdpactl__apt_private_opts "$(vdpactl__apt_unstable_dir)"
}

# apt-get/apt-cache options that point every apt path at the private apt directory DIR
# (sources.list, lists, cache, an empty status: no root, the host's apt state untouched).
vdpactl__apt_private_opts() {
    local d=$1
    printf '%s\n' -o "Dir::Etc::sourcelist=$d/sources.list" -o "Dir::Etc::sourceparts=$d/sources.list.d" \
        -o "Dir::State::Lists=$d/lists" -o "Dir::Cache=$d/cache" -o "Dir::State::status=$d/status" \
        -o "Acquire::Languages=none" -o "APT::Get::List-Cleanup=false" -o "Debug::NoLocking=true"
}

# Refreshes the private unstable package lists (no root needed).
vdpactl__apt_unstable_update() {
    local d
    d="$(vdpactl__apt_unstable_dir)"
    mkdir -p "$d/lists/partial" "$d/cache/archives/partial" "$d/sources.list.d" || return 1
    : >"$d/status"
    command -v python3 >/dev/null 2>&1 || { echo "kernel-source: python3 is needed to derive the unstable apt sources" >&2; return 1; }
    python3 "$VDPACTL_KSRC_LIB_DIR/apt-unstable-sources.py" >"$d/sources.list.tmp" || {
        echo "kernel-source: could not derive an unstable sources list from this machine's apt sources" >&2
        return 1
    }
    mv "$d/sources.list.tmp" "$d/sources.list"
    local -a opts
    mapfile -t opts < <(vdpactl__apt_unstable_opts)
    echo "kernel-source: refreshing the private unstable package lists in $d" >&2
    apt-get -q "${opts[@]}" update >&2
}

# Prints "<package> <version>" of the newest kernel source in unstable and pins it (cache/ID.pin).
vdpactl__sid_pin() {
    local pin pkg ver meta
    pin="$(vdpactl_cache_dir)/$(vdpactl_lane_kernel).pin"
    meta="$(vdpactl_lane_matrix_get "$(vdpactl_lane_kernel)" package)"
    if [[ -s "$pin" && "${VDPACTL_SID_REFRESH:-0}" != 1 ]]; then
        cat "$pin"
        return 0
    fi
    vdpactl__apt_unstable_update || return 1
    local -a opts
    mapfile -t opts < <(vdpactl__apt_unstable_opts)
    # The metapackage ("linux-source") depends on exactly the newest linux-source-N.M.
    pkg="$(apt-cache "${opts[@]}" show "$meta" 2>/dev/null |
        sed -n 's/^Depends:.*\(linux-source-[0-9][0-9.]*\).*/\1/p' | sort -V | tail -n1)"
    [[ -n "$pkg" ]] || { echo "kernel-source: no $meta metapackage in the unstable lists" >&2; return 1; }
    ver="$(apt-cache "${opts[@]}" show "$pkg" 2>/dev/null | sed -n 's/^Version: //p' | sort -V | tail -n1)"
    [[ -n "$ver" ]] || { echo "kernel-source: $pkg has no version in the unstable lists" >&2; return 1; }
    mkdir -p "$(dirname "$pin")"
    printf '%s %s\n' "$pkg" "$ver" >"$pin"
    echo "kernel-source: newest unstable kernel source: $pkg $ver (pinned in $pin)" >&2
    printf '%s %s\n' "$pkg" "$ver"
}

# Prints the package name of the selected kernel; for an unstable one (sid) without a pin and without
# network access (VDPACTL_OFFLINE=1) it fails.
vdpactl_kernel_source_pkg() {
    if [[ -n "${VDPACTL_KERNEL_SOURCE_PKG:-}" ]]; then
        printf '%s\n' "$VDPACTL_KERNEL_SOURCE_PKG"
        return 0
    fi
    local id pin
    id="$(vdpactl_lane_kernel)" || return 1
    if vdpactl__lane_kernel_unstable "$id"; then
        pin="$(vdpactl_cache_dir)/$id.pin"
        if [[ "${VDPACTL_OFFLINE:-0}" == 1 ]]; then
            [[ -s "$pin" ]] || return 1
            cut -d' ' -f1 "$pin"
        else
            vdpactl__sid_pin | cut -d' ' -f1
        fi
    else
        vdpactl_lane_matrix_get "$id" package
    fi
}

# Directory into which the .deb is unpacked.
vdpactl__kernel_source_dir() {
    local pkg
    pkg="$(vdpactl_kernel_source_pkg)" || return 1
    printf '%s/%s\n' "$(vdpactl_cache_dir)" "$pkg"
}

vdpactl__kernel_source_fetch() {
    local pkg dir debdir deb tarball want="" id
    pkg="$(vdpactl_kernel_source_pkg)" || return 1
    dir="$(vdpactl__kernel_source_dir)" || return 1
    debdir="$(vdpactl_cache_dir)/debs"
    mkdir -p "$debdir" || return 1
    local -a opts=()
    id="$(vdpactl_lane_kernel)" || return 1
    if vdpactl__lane_kernel_unstable "$id" && [[ -z "${VDPACTL_KERNEL_SOURCE_PKG:-}" ]]; then
        mapfile -t opts < <(vdpactl__apt_unstable_opts)
        want="$(vdpactl__sid_pin | cut -d' ' -f2)"
    fi

    if [[ -n "$want" ]]; then
        deb="$(ls -1 "$debdir/${pkg}_${want//:/%3a}_"*.deb 2>/dev/null | head -n1 || true)"
    else
        deb="$(ls -1 "$debdir/${pkg}_"*.deb 2>/dev/null | sort -V | tail -n1 || true)"
    fi
    if [[ -z "$deb" ]]; then
        command -v apt-get >/dev/null 2>&1 || {
            echo "kernel-source: apt-get not found; set VDPACTL_KERNEL_SOURCE_TARBALL to a $pkg tarball" >&2
            return 1
        }
        local spec="$pkg${want:+=$want}"
        echo "kernel-source: downloading $spec with apt-get download into $debdir" >&2
        if ! (cd "$debdir" && apt-get -q "${opts[@]}" download "$spec" >&2); then
            if ((${#opts[@]})) && (cd "$debdir" && vdpactl__apt_unstable_update && apt-get -q "${opts[@]}" download "$spec" >&2); then
                :
            else
                echo "kernel-source: 'apt-get download $spec' failed (is the package in your apt sources? as root: apt-get update)" >&2
                return 1
            fi
        fi
        deb="$(ls -1 "$debdir/${pkg}_"*.deb 2>/dev/null | sort -V | tail -n1 || true)"
        [[ -n "$deb" ]] || { echo "kernel-source: no $pkg .deb after download" >&2; return 1; }
    fi

    echo "kernel-source: unpacking $(basename "$deb")" >&2
    rm -rf "$dir.tmp" && mkdir -p "$dir.tmp" || return 1
    dpkg-deb -x "$deb" "$dir.tmp" || { rm -rf "$dir.tmp"; return 1; }
    dpkg-deb -f "$deb" Version > "$dir.tmp/VERSION" || { rm -rf "$dir.tmp"; return 1; }
    tarball="$(ls -1 "$dir.tmp"/usr/src/linux-source-*.tar.xz 2>/dev/null | head -n1 || true)"
    [[ -n "$tarball" ]] || { echo "kernel-source: no usr/src/linux-source-*.tar.xz in $deb" >&2; rm -rf "$dir.tmp"; return 1; }
    rm -rf "$dir" && mv "$dir.tmp" "$dir"
}

# Prints the absolute path of the linux-source tarball, fetching it on first use.
vdpactl_kernel_source_tarball() {
    if [[ -n "${VDPACTL_KERNEL_SOURCE_TARBALL:-}" ]]; then
        [[ -f "$VDPACTL_KERNEL_SOURCE_TARBALL" ]] || {
            echo "kernel-source: VDPACTL_KERNEL_SOURCE_TARBALL=$VDPACTL_KERNEL_SOURCE_TARBALL does not exist" >&2
            return 1
        }
        printf '%s\n' "$VDPACTL_KERNEL_SOURCE_TARBALL"
        return 0
    fi
    local dir tarball lock pin_ver=""
    mkdir -p "$(vdpactl_cache_dir)" || return 1
    dir="$(vdpactl__kernel_source_dir)" || return 1
    if vdpactl__lane_kernel_unstable "$(vdpactl_lane_kernel)" && [[ -z "${VDPACTL_KERNEL_SOURCE_PKG:-}" ]]; then
        pin_ver="$(cut -d' ' -f2 "$(vdpactl_cache_dir)/$(vdpactl_lane_kernel).pin" 2>/dev/null || true)"
    fi
    lock="$(vdpactl_cache_dir)/.kernel-source.lock"
    (
        # Serialise concurrent callers (e.g. regen-bindings and the VM build).
        if command -v flock >/dev/null 2>&1; then
            exec 9>"$lock" && flock 9
        fi
        if ! ls "$dir"/usr/src/linux-source-*.tar.xz >/dev/null 2>&1 ||
            { [[ -n "$pin_ver" ]] && [[ "$(cat "$dir/VERSION" 2>/dev/null)" != "$pin_ver" ]]; }; then
            vdpactl__kernel_source_fetch || exit 1
        fi
    ) || return 1
    tarball="$(ls -1 "$dir"/usr/src/linux-source-*.tar.xz | head -n1)"
    printf '%s\n' "$tarball"
}

# Prints the Debian version of the package behind the tarball (e.g. 6.12.117-1~deb12u1),
# or "unknown" when VDPACTL_KERNEL_SOURCE_TARBALL was given.
vdpactl_kernel_source_version() {
    local f
    f="$(vdpactl__kernel_source_dir 2>/dev/null)/VERSION" || { echo unknown; return 0; }
    if [[ -z "${VDPACTL_KERNEL_SOURCE_TARBALL:-}" && -f "$f" ]]; then
        cat "$f"
    else
        echo unknown
    fi
}
