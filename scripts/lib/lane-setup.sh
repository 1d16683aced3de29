# shellcheck shell=bash
# Set-up of a fresh machine for the real-kernel lane, used by scripts/test (the README's test
# command) so that it needs nothing done by hand. Source after lib/vm-common.sh.
#
#   vdpactl_lane_setup KERNEL_ID...
#       Installs what the lane needs for those kernels: QEMU, a static busybox, iproute2, Maven
#       when `mvn` is missing, and the kernel build dependencies unless every kernel is cached;
#       and Chromium, in which ReportInBrowserTest renders the HTML reports (without it that test
#       is aborted with the reason), and python3-jsonschema, the independent validator of
#       IndependentSchemaValidatorTest (and of the Ansible modules).
#       Refreshes the host's apt lists first when they are missing, older than a day while a
#       package must be installed or a kernel source downloaded, or when apt does not know a
#       needed package (stale lists: the 6.12 source lives in bookworm-security, and a security
#       update removes the old .deb from the mirror).
#       The kernel sources are not installed: scripts/vm-kernel downloads them later as the user who
#       runs the lane (`apt-get download`, lib/kernel-source.sh), so they need root only when apt does
#       not know them yet (the lists must be refreshed).
#       As root it does all that itself, waiting for apt's locks when another package manager holds
#       them (lib/apt.sh). Otherwise it prints the one command to run and returns 1.
#       Returns 0 when nothing that needs root is missing (no root needed then).
#       Then, with the packages in place, it fetches the lane's second QEMU (bookworm-backports'
#       QEMU 10.0, unpacked into the cache, nothing installed: lib/qemu-peer.sh). That needs no root;
#       when it fails the set-up says so and goes on (the lane then says QEMU PEER SKIPPED and
#       tries once more itself).

# Prints the names of the host's own apt packages the lane needs that apt does not know.
vdpactl__apt_unknown() {
    local p
    for p in "$@"; do
        apt-cache show "$p" >/dev/null 2>&1 || printf '%s\n' "$p"
    done
}

# True when the host's apt lists are missing or were refreshed more than a day ago.
vdpactl__apt_lists_stale() {
    local newest
    newest="$(find /var/lib/apt/lists -maxdepth 1 -name '*_Packages*' -printf '%T@\n' 2>/dev/null | sort -n | tail -n1)"
    [[ -z "$newest" ]] && return 0
    (($(date +%s) - ${newest%.*} > 86400))
}

vdpactl_lane_setup() {
    vdpactl__lane_setup_packages "$@" || return
    local t0=$SECONDS peer
    if peer="$(vdpactl_qemu_peer_setup)"; then
        echo "scripts/test: set-up: second QEMU for the lane: $peer ($((SECONDS - t0)) s)" >&2
    else
        echo "scripts/test: set-up: the lane's second QEMU (bookworm-backports) could not be fetched; the lane will try again" >&2
    fi
    return 0
}

vdpactl__lane_setup_packages() {
    local id pkgs=() sources=() need_build=0 missing=() unknown=() update=0
    pkgs=("${VDPACTL_VM_RUN_PKGS[@]}" iproute2 python3 python3-jsonschema chromium)
    command -v mvn >/dev/null 2>&1 || pkgs+=(maven)
    for id in "$@"; do
        if ! VDPACTL_LANE_KERNEL="$id" vdpactl_vm_cached_kernel >/dev/null 2>&1; then
            need_build=1
            # a "host" suite kernel comes from the host's apt sources; an unstable one (sid) from the lane's private apt dir.
            local pkg
            pkg=$(vdpactl_lane_matrix_get "$id" package)
            if ! vdpactl__lane_kernel_unstable "$id" && ! ls "$(vdpactl_cache_dir)/$pkg"/usr/src/*.tar.xz >/dev/null 2>&1; then
                sources+=("$pkg")
            fi
        fi
    done
    ((need_build)) && pkgs+=("${VDPACTL_VM_KERNEL_BUILD_PKGS[@]}")
    command -v dpkg-query >/dev/null 2>&1 || return 0 # not a Debian-like host: vm-check-prereqs says what is missing
    mapfile -t missing < <(vdpactl_vm_missing_packages "${pkgs[@]}")
    ((${#missing[@]} + ${#sources[@]})) || return 0
    mapfile -t unknown < <(vdpactl__apt_unknown "${missing[@]}" "${sources[@]}")
    if ((${#unknown[@]})); then
        update=1
    elif ((${#missing[@]})) && vdpactl__apt_lists_stale; then
        update=1
    elif ((EUID == 0)) && vdpactl__apt_lists_stale; then
        update=1 # only a source to download: fresher lists help it, and root has them for free
    fi
    # nothing to install and apt knows every source: the download needs no root
    ((${#missing[@]} + update)) || return 0
    # the printed command waits for a dpkg lock another apt holds (DPkg::Lock::Timeout), as vdpactl_apt_get does
    local apt="apt-get -o DPkg::Lock::Timeout=${VDPACTL_APT_LOCK_TIMEOUT:-600}"
    local install_cmd="$apt install -y --no-install-recommends ${missing[*]}"
    local cmd
    if ((update)) && ((${#missing[@]})); then
        cmd="$apt update && $install_cmd"
    elif ((update)); then
        cmd="$apt update"
    else
        cmd="$install_cmd"
    fi
    if ((EUID != 0)); then
        echo "scripts/test: the real-kernel lane needs set-up that only root can do${missing[*]:+ (missing: ${missing[*]})}${unknown[*]:+ (apt does not know: ${unknown[*]})}." >&2
        echo "scripts/test: run this once, then scripts/test again:  sudo sh -c '$cmd'" >&2
        echo "scripts/test: (or scripts/test --fast to run without the real-kernel lane)" >&2
        return 1
    fi
    echo "scripts/test: set-up: $cmd" >&2
    export DEBIAN_FRONTEND=noninteractive
    if ((update)); then
        vdpactl_apt_get update -q >&2 || { echo "scripts/test: apt-get update failed" >&2; return 1; }
    fi
    if ((${#missing[@]})); then
        vdpactl_apt_get install -y -q --no-install-recommends "${missing[@]}" >&2 || {
            echo "scripts/test: apt-get install ${missing[*]} failed" >&2
            return 1
        }
    fi
    return 0
}
