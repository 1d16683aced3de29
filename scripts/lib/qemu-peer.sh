# shellcheck shell=bash
# The lane's second QEMU: a current QEMU (bookworm-backports' qemu-system-x86, 10.0 when this was
# written) next to the host's own Debian 12 QEMU 7.2, so that the lane's QEMU comparison runs
# against a client that suspends and resumes (QEMU >= 8.1) as well as against 7.2 (issue 34).
# Source after lib/kernel-source.sh; defines functions only.
#
# Nothing is installed: the packages are downloaded with `apt-get download` through a PRIVATE apt
# directory (cache/apt-backports/, its sources list derived from the host's own by
# scripts/lib/apt-unstable-sources.py --suite '{codename}-backports', as the sid kernel's is) and
# unpacked with dpkg-deb into cache/qemu-<version>/root. bin/qemu-system-x86_64 there is a wrapper
# that runs the unpacked binary with its own firmware (-L the unpacked qemu-system-data and seabios)
# and its own modules (QEMU_MODULE_DIR), so the host's 7.2 files are never mixed in. The first
# lookup pins the version (cache/qemu-peer.pin); later runs use exactly that one until
# VDPACTL_QEMU_PEER_REFRESH=1. The unpacked tree's libraries are the host's (Debian 12's: the
# backport is built for it); a missing one is named.
#
#   vdpactl_qemu_peer_cached    prints the wrapper's path when the peer is unpacked; no network
#   vdpactl_qemu_peer_setup     downloads and unpacks the peer when needed, prints the wrapper's
#                               path; records the set-up's time (cold: download + unpack) in
#                               cache/qemu-<version>/info (setup_seconds)
#   vdpactl_qemu_peer_info KEY  prints one value of that info file (version, setup_seconds, ...)
#
# Environment: VDPACTL_QEMU_PEER=none disables the peer (the lane then says QEMU PEER SKIPPED).

# The packages, as bookworm-backports' qemu-system-x86 depends on them: its firmware comes from
# qemu-system-data and seabios (>> 1.16.3, newer than Debian 12's 1.16.2, hence from backports too).
VDPACTL_QEMU_PEER_PKGS=(qemu-system-x86 qemu-system-common qemu-system-data seabios)

vdpactl__qemu_peer_msg() {
    printf '%s: %s\n' "${VDPACTL_PROG:-qemu-peer}" "$*" >&2
}

vdpactl__qemu_peer_apt_dir() {
    printf '%s/apt-backports\n' "$(vdpactl_cache_dir)"
}

vdpactl__qemu_peer_dir_of() { # VERSION
    local v=$1
    printf '%s/qemu-%s\n' "$(vdpactl_cache_dir)" "${v//[^A-Za-z0-9.+_-]/_}"
}

vdpactl_qemu_peer_cached() {
    [[ "${VDPACTL_QEMU_PEER:-}" == none ]] && return 1
    local pin dir
    pin="$(vdpactl_cache_dir)/qemu-peer.pin"
    [[ -s "$pin" ]] || return 1
    dir="$(vdpactl__qemu_peer_dir_of "$(cat "$pin")")"
    [[ -f "$dir/.complete" && -x "$dir/bin/qemu-system-x86_64" ]] || return 1
    printf '%s\n' "$dir/bin/qemu-system-x86_64"
}

vdpactl_qemu_peer_info() { # KEY
    local w
    w="$(vdpactl_qemu_peer_cached)" || return 1
    sed -n "s/^$1=//p" "$(dirname "$(dirname "$w")")/info" | head -n1
}

vdpactl__qemu_peer_update() {
    local d
    d="$(vdpactl__qemu_peer_apt_dir)"
    mkdir -p "$d/lists/partial" "$d/cache/archives/partial" "$d/sources.list.d" || return 1
    : >"$d/status"
    python3 "$VDPACTL_KSRC_LIB_DIR/apt-unstable-sources.py" --suite '{codename}-backports' >"$d/sources.list.tmp" || {
        vdpactl__qemu_peer_msg "could not derive a backports sources list from this machine's apt sources"
        return 1
    }
    mv "$d/sources.list.tmp" "$d/sources.list"
    local -a opts
    mapfile -t opts < <(vdpactl__apt_private_opts "$d")
    vdpactl__qemu_peer_msg "refreshing the private backports package lists in $d"
    apt-get -q "${opts[@]}" update >&2
}

vdpactl_qemu_peer_setup() {
    [[ "${VDPACTL_QEMU_PEER:-}" == none ]] && { vdpactl__qemu_peer_msg "VDPACTL_QEMU_PEER=none: no second QEMU"; return 1; }
    local w
    if [[ "${VDPACTL_QEMU_PEER_REFRESH:-0}" != 1 ]] && w="$(vdpactl_qemu_peer_cached)"; then
        printf '%s\n' "$w"
        return 0
    fi
    command -v apt-get >/dev/null 2>&1 && command -v dpkg-deb >/dev/null 2>&1 || {
        vdpactl__qemu_peer_msg "apt-get and dpkg-deb are needed to fetch the second QEMU (a Debian host)"
        return 1
    }
    local t0=$SECONDS d ver dir stage p deb missing lock
    d="$(vdpactl__qemu_peer_apt_dir)"
    mkdir -p "$(vdpactl_cache_dir)" || return 1
    lock="$(vdpactl_cache_dir)/.qemu-peer.lock"
    (
        # one set-up at a time (scripts/test's set-up and a lane started next to it)
        if command -v flock >/dev/null 2>&1; then exec 9>"$lock" && flock 9; fi
        local -a opts
        mapfile -t opts < <(vdpactl__apt_private_opts "$d")
        pin="$(vdpactl_cache_dir)/qemu-peer.pin"
        if [[ -s "$pin" && "${VDPACTL_QEMU_PEER_REFRESH:-0}" != 1 ]]; then
            ver="$(cat "$pin")"
        else
            vdpactl__qemu_peer_update || exit 1
            ver="$(apt-cache "${opts[@]}" show qemu-system-x86 2>/dev/null | sed -n 's/^Version: //p' | sort -V | tail -n1)"
            [[ "$ver" == *bpo* ]] || { vdpactl__qemu_peer_msg "no qemu-system-x86 in the backports lists (found '${ver:-nothing}')"; exit 1; }
        fi
        dir="$(vdpactl__qemu_peer_dir_of "$ver")"
        [[ -f "$dir/.complete" ]] && { printf '%s\n' "$ver" >"$pin"; exit 0; }
        stage="$dir.tmp"
        rm -rf "$stage" && mkdir -p "$stage/debs" "$stage/root" "$stage/bin" || exit 1
        local -a specs=("qemu-system-x86=$ver" "qemu-system-common=$ver" "qemu-system-data=$ver" seabios) # the private lists hold backports only
        vdpactl__qemu_peer_msg "downloading ${VDPACTL_QEMU_PEER_PKGS[*]} $ver (bookworm-backports) with apt-get download"
        if ! (cd "$stage/debs" && apt-get -q "${opts[@]}" download "${specs[@]}" >&2); then
            # stale private lists (a newer backport replaced the pinned one): refresh once, then try again
            vdpactl__qemu_peer_update && (cd "$stage/debs" && apt-get -q "${opts[@]}" download "${specs[@]}" >&2) || {
                vdpactl__qemu_peer_msg "apt-get download ${specs[*]} failed"
                rm -rf "$stage"
                exit 1
            }
        fi
        for deb in "$stage"/debs/*.deb; do
            dpkg-deb -x "$deb" "$stage/root" || { rm -rf "$stage"; exit 1; }
            printf 'package=%s %s\n' "$(dpkg-deb -f "$deb" Package)" "$(dpkg-deb -f "$deb" Version)" >>"$stage/info"
        done
        rm -rf "$stage/debs"
        # the binary the qemu-system-x86 package unpacked, found in the staged tree rather than named by its path
        unpacked=$(find "$stage/root" -type f -name qemu-system-x86_64 | head -1)
        [[ -n "$unpacked" ]] || { vdpactl__qemu_peer_msg "the unpacked packages hold no qemu-system-x86_64"; rm -rf "$stage"; exit 1; }
        missing="$(LC_ALL=C ldd "$unpacked" 2>&1 | sed -n 's/^[[:space:]]*\([^ ]*\) => not found.*/\1/p' | tr '\n' ' ')"
        if [[ -n "$missing" ]]; then
            vdpactl__qemu_peer_msg "the second QEMU needs libraries this host lacks: ${missing% } (install the host's qemu-system-x86, which brings them)"
            rm -rf "$stage"
            exit 1
        fi
        # the wrapper: the unpacked binary with its own firmware and modules, wherever the cache is
        cat >"$stage/bin/qemu-system-x86_64" <<'WRAPPER'
#!/bin/sh
# written by scripts/lib/qemu-peer.sh: bookworm-backports' QEMU, unpacked, with its own firmware and modules
r="$(cd "$(dirname "$0")/../root" && pwd)"
QEMU_MODULE_DIR="$r/usr/lib/x86_64-linux-gnu/qemu" exec "$r/usr/bin/qemu-system-x86_64" -L "$r/usr/share/qemu" -L "$r/usr/share/seabios" "$@"
WRAPPER
        chmod 0755 "$stage/bin/qemu-system-x86_64"
        "$stage/bin/qemu-system-x86_64" --version >/dev/null || { vdpactl__qemu_peer_msg "the unpacked QEMU does not run"; rm -rf "$stage"; exit 1; }
        {
            echo "version=$ver"
            echo "qemu_version=$("$stage/bin/qemu-system-x86_64" --version | sed -n '1s/^QEMU emulator version //p')"
            echo "setup_seconds=$((SECONDS - t0))"
            echo "set_up_at=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
        } >>"$stage/info"
        rm -rf "$dir" && mv "$stage" "$dir" && touch "$dir/.complete" || exit 1
        printf '%s\n' "$ver" >"$pin"
        vdpactl__qemu_peer_msg "second QEMU $ver unpacked in $dir in $((SECONDS - t0)) s"
    ) || return 1
    vdpactl_qemu_peer_cached
}
