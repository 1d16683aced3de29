# shellcheck shell=bash
# Shared helper: locate (and if needed fetch) the Debian "linux-source-6.12"
# tarball. Source this file from bash scripts; it defines functions only and
# does not change shell options.
#
#   vdpactl_kernel_source_tarball   prints the path of linux-source-6.12.tar.xz
#   vdpactl_kernel_source_version   prints the Debian package version used
#   vdpactl_cache_dir               prints the cache directory
#
# Environment:
#   VDPACTL_CACHE_DIR            cache root (default ${XDG_CACHE_HOME:-$HOME/.cache}/vdpactl)
#   VDPACTL_KERNEL_SOURCE_PKG    Debian package name (default linux-source-6.12)
#   VDPACTL_KERNEL_SOURCE_TARBALL  use this existing linux-source tarball, download nothing
#
# The .deb is obtained with `apt-get download` (the distribution's own package
# client; the host's apt sources decide where from) and unpacked with dpkg-deb.
# All messages go to stderr; only the result goes to stdout.

vdpactl_cache_dir() {
    printf '%s\n' "${VDPACTL_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/vdpactl}"
}

vdpactl__kernel_source_pkg() {
    printf '%s\n' "${VDPACTL_KERNEL_SOURCE_PKG:-linux-source-6.12}"
}

# Directory into which the .deb is unpacked.
vdpactl__kernel_source_dir() {
    printf '%s/%s\n' "$(vdpactl_cache_dir)" "$(vdpactl__kernel_source_pkg)"
}

vdpactl__kernel_source_fetch() {
    local pkg dir debdir deb tarball
    pkg="$(vdpactl__kernel_source_pkg)"
    dir="$(vdpactl__kernel_source_dir)"
    debdir="$(vdpactl_cache_dir)/debs"
    mkdir -p "$debdir" || return 1

    deb="$(ls -1 "$debdir/${pkg}_"*.deb 2>/dev/null | sort -V | tail -n1 || true)"
    if [[ -z "$deb" ]]; then
        command -v apt-get >/dev/null 2>&1 || {
            echo "kernel-source: apt-get not found; set VDPACTL_KERNEL_SOURCE_TARBALL to a $pkg tarball" >&2
            return 1
        }
        echo "kernel-source: downloading $pkg with apt-get download into $debdir" >&2
        (cd "$debdir" && apt-get download "$pkg" >&2) || {
            echo "kernel-source: 'apt-get download $pkg' failed (is the package in your apt sources? try 'apt-get update')" >&2
            return 1
        }
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
    local dir tarball lock
    dir="$(vdpactl__kernel_source_dir)"
    mkdir -p "$(vdpactl_cache_dir)" || return 1
    lock="$(vdpactl_cache_dir)/.kernel-source.lock"
    (
        # Serialise concurrent callers (e.g. regen-bindings and the VM build).
        if command -v flock >/dev/null 2>&1; then
            exec 9>"$lock" && flock 9
        fi
        if ! ls "$dir"/usr/src/linux-source-*.tar.xz >/dev/null 2>&1; then
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
    f="$(vdpactl__kernel_source_dir)/VERSION"
    if [[ -z "${VDPACTL_KERNEL_SOURCE_TARBALL:-}" && -f "$f" ]]; then
        cat "$f"
    else
        echo unknown
    fi
}
