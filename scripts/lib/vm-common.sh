# shellcheck shell=bash
# Shared helpers of the real-kernel test lane (scripts/vm-kernel, scripts/vm-run,
# scripts/vm-check-prereqs). Source from bash; defines functions only and does not
# change shell options. Messages go to stderr, results to stdout.
#
# Environment (all optional):
#   VDPACTL_CACHE_DIR       cache root (default ${XDG_CACHE_HOME:-$HOME/.cache}/vdpactl)
#   VDPACTL_VM_KERNEL       use this bzImage instead of building one
#   VDPACTL_BUSYBOX         static busybox binary for the initramfs (default: busybox in PATH)
#   VDPACTL_QEMU            QEMU binary (default qemu-system-x86_64)
#   VDPACTL_VM_SMP          guest vCPUs, 1 (default) or 2: 2 boots the lane kernel's SMP variant
#   CI=true                 missing Debian packages may be installed automatically

VDPACTL_VM_LIB_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
VDPACTL_VM_SCRIPTS_DIR="$(dirname "$VDPACTL_VM_LIB_DIR")"
# shellcheck source=scripts/lib/kernel-source.sh
. "$VDPACTL_VM_LIB_DIR/kernel-source.sh"
# shellcheck source=scripts/lib/apt.sh
. "$VDPACTL_VM_LIB_DIR/apt.sh"
# shellcheck source=scripts/lib/qemu-peer.sh
. "$VDPACTL_VM_LIB_DIR/qemu-peer.sh"
# shellcheck source=scripts/lib/jdk.sh
. "$VDPACTL_VM_LIB_DIR/jdk.sh"

# Debian packages needed to build the guest kernel.
VDPACTL_VM_KERNEL_BUILD_PKGS=(build-essential bc bison flex libelf-dev libssl-dev xz-utils python3)
# Debian packages needed to boot it. strace: the lane's QEMU trace test (QemuTraceKernelTest) records
# the guest-side QEMU's calls on its vhost-vdpa node with the host's strace, seen through the 9p root.
# shellcheck disable=SC2034 # used by scripts/vm-check-prereqs
VDPACTL_VM_RUN_PKGS=(qemu-system-x86 busybox-static strace)

vdpactl_vm_msg() {
    printf '%s: %s\n' "${VDPACTL_PROG:-vdpactl-vm}" "$*" >&2
}

vdpactl_vm_qemu() {
    printf '%s\n' "${VDPACTL_QEMU:-qemu-system-x86_64}"
}

vdpactl_vm_fragment() {
    printf '%s\n' "$VDPACTL_VM_SCRIPTS_DIR/vm/kernel.config"
}

# Prints the guest's vCPU count, VDPACTL_VM_SMP (default 1), or says why the lane kernel cannot boot that
# many. 1 is the default lane kernel (uniprocessor); more select its SMP variant (vdpactl_vm_fragments), up
# to the variant's CONFIG_NR_CPUS (scripts/vm/kernel-smp.config, the one place that says how many).
vdpactl_vm_smp() {
    local n="${VDPACTL_VM_SMP:-1}" max
    max="$(sed -n 's/^CONFIG_NR_CPUS=//p' "$VDPACTL_VM_SCRIPTS_DIR/vm/kernel-smp.config")"
    if [[ ! "$n" =~ ^[1-9][0-9]*$ ]] || ((n > max)); then
        vdpactl_vm_msg "VDPACTL_VM_SMP (--smp) must be 1 to $max for the lane kernel (its SMP variant has CONFIG_NR_CPUS=$max), not '$n'"
        return 1
    fi
    printf '%s\n' "$n"
}

# The configuration lists of the selected kernel: the common list, then the kernel's own
# additions (scripts/vm/kernel-<id>.config) where an older Kconfig needs more, e.g. 6.1's
# 9P_FS depends on INET, then, for more than one vCPU (VDPACTL_VM_SMP), the SMP variant's
# (scripts/vm/kernel-smp.config). Every list is part of the cache key (vdpactl_vm_config_sha),
# so the SMP variant is a kernel of its own beside the default one.
vdpactl_vm_fragments() {
    local id extra smp
    vdpactl_vm_fragment
    id="$(vdpactl_lane_kernel)" || return 1
    extra="$VDPACTL_VM_SCRIPTS_DIR/vm/kernel-$id.config"
    if [[ -f "$extra" ]]; then printf '%s\n' "$extra"; fi
    smp="$(vdpactl_vm_smp)" || return 1
    if ((smp > 1)); then printf '%s\n' "$VDPACTL_VM_SCRIPTS_DIR/vm/kernel-smp.config"; fi
}

vdpactl_vm_ci() {
    [[ "${CI:-}" == "true" ]]
}

# Prints those of the given Debian packages that are not installed.
vdpactl_vm_missing_packages() {
    local p st
    for p in "$@"; do
        st="$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)"
        [[ "$st" == "installed" ]] || printf '%s\n' "$p"
    done
}

# Installs Debian packages with apt-get (as root, or through sudo).
vdpactl_vm_install_packages() {
    (($# > 0)) || return 0
    local -a sudo=()
    if ((EUID != 0)); then
        command -v sudo >/dev/null 2>&1 || {
            vdpactl_vm_msg "need root (or sudo) to install: $*"
            return 1
        }
        sudo=(sudo)
    fi
    vdpactl_vm_msg "installing Debian packages: $*"
    if ! vdpactl_apt_get "${sudo[@]}" install -q -y --no-install-recommends "$@" >&2; then
        # vdpactl_apt_get (lib/apt.sh) already waited for another apt process's locks (-o DPkg::Lock::Timeout,
        # VDPACTL_APT_LOCK_TIMEOUT): this failure is apt's own, most often stale package lists
        vdpactl_vm_msg "the package install failed after waiting for apt's locks (up to VDPACTL_APT_LOCK_TIMEOUT s); retrying after a package-list update"
        vdpactl_apt_get "${sudo[@]}" update >&2 || true
        vdpactl_apt_get "${sudo[@]}" install -q -y --no-install-recommends "$@" >&2 || return 1
    fi
}

# Cache-key part for the kernel source: the Debian version, made file-name safe
# (6.12.117-1~deb12u1 -> 6.12.117-1_deb12u1). Fetches the source if needed.
vdpactl_vm_kernel_srcver() {
    local v tarball
    tarball="$(vdpactl_kernel_source_tarball)" || return 1
    v="$(vdpactl_kernel_source_version)"
    if [[ "$v" == unknown ]]; then
        v="tarball-$(sha256sum "$tarball" | cut -c1-12)"
    fi
    printf '%s\n' "${v//[^A-Za-z0-9.+_-]/_}"
}

# How scripts/vm-kernel turns the fragment into a .config; part of the cache key, so a
# change of the recipe is a new kernel.
VDPACTL_VM_CONFIG_RECIPE="allnoconfig KCONFIG_ALLCONFIG=kernel.config"

# The configuration's identity: sha256 (12 hex digits) of the recipe and the fragment's effective
# lines (options, "is not set" lines and optional markers; comments do not change the kernel).
vdpactl_vm_config_sha() {
    { printf '%s\n' "$VDPACTL_VM_CONFIG_RECIPE"
      local f
      while IFS= read -r f; do
          grep -E '^(CONFIG_|# CONFIG_[A-Za-z0-9_]+ is not set|# vdpactl: optional)' "$f"
      done < <(vdpactl_vm_fragments)
    } | sha256sum | cut -c1-12
}

# Prints the kernel cache directory for the selected kernel's source version and config.
vdpactl_vm_kernel_dir() {
    local srcver
    srcver="$(vdpactl_vm_kernel_srcver)" || return 1
    printf '%s/kernel-%s-%s\n' "$(vdpactl_cache_dir)" "$srcver" "$(vdpactl_vm_config_sha)"
}

# Prints the cached bzImage path if it exists, without downloading or building
# anything; fails otherwise.
vdpactl_vm_cached_kernel() {
    if [[ -n "${VDPACTL_VM_KERNEL:-}" ]]; then
        [[ -f "$VDPACTL_VM_KERNEL" ]] && printf '%s\n' "$VDPACTL_VM_KERNEL"
        return
    fi
    # Only look when the source is already cached (vdpactl_kernel_source_version
    # reads the version stored next to it); never download here (VDPACTL_OFFLINE: the sid
    # kernel's package name comes from its pin file, not from the network).
    local srcdir dir
    srcdir="$(VDPACTL_OFFLINE=1 vdpactl__kernel_source_dir 2>/dev/null)" || return 1
    [[ -n "${VDPACTL_KERNEL_SOURCE_TARBALL:-}" ]] || [[ -f "$srcdir/VERSION" ]] || return 1
    dir="$(VDPACTL_OFFLINE=1 vdpactl_vm_kernel_dir 2>/dev/null)" || return 1
    [[ -f "$dir/bzImage" && -f "$dir/.complete" ]] || return 1
    printf '%s\n' "$dir/bzImage"
}

# Prints the path of a statically linked busybox (the initramfs has no libc).
vdpactl_vm_busybox() {
    local b="${VDPACTL_BUSYBOX:-}"
    if [[ -z "$b" ]]; then
        b="$(command -v busybox 2>/dev/null || true)"
        [[ -n "$b" ]] || { [[ -x /bin/busybox ]] && b=/bin/busybox; }
    fi
    [[ -n "$b" && -x "$b" ]] || return 1
    # A dynamic busybox (Debian package "busybox") cannot run without libc.
    if LC_ALL=C ldd "$b" 2>&1 | grep -q '=>'; then
        return 2
    fi
    printf '%s\n' "$b"
}

# Prints, one per line, every reason why the lane cannot run here; prints nothing
# when it can. With --java also requires a JDK >= 22 for the guest.
vdpactl_vm_prereq_problems() {
    local need_java=0 qemu missing rc
    [[ "${1:-}" == --java ]] && need_java=1
    if [[ "$(uname -m)" != x86_64 ]]; then
        echo "host is $(uname -m), not x86_64 (the guest runs the host's own binaries)"
    fi
    qemu="$(vdpactl_vm_qemu)"
    command -v "$qemu" >/dev/null 2>&1 ||
        echo "$qemu not installed (Debian package qemu-system-x86)"
    rc=0
    vdpactl_vm_busybox >/dev/null || rc=$?
    case "$rc" in
        0) ;;
        2) echo "busybox is dynamically linked; a static one is needed (Debian package busybox-static)" ;;
        *) echo "busybox not installed (Debian package busybox-static)" ;;
    esac
    command -v strace >/dev/null 2>&1 ||
        echo "strace not installed (Debian package strace); the lane's QEMU trace comparison needs it"
    [[ -x /usr/sbin/vdpa || -x /sbin/vdpa ]] || command -v vdpa >/dev/null 2>&1 ||
        echo "iproute2's vdpa tool not installed (Debian package iproute2); the default vDPA devices cannot be created"
    if ! vdpactl_vm_cached_kernel >/dev/null; then
        if ! command -v dpkg-query >/dev/null 2>&1; then
            command -v make >/dev/null 2>&1 && command -v gcc >/dev/null 2>&1 ||
                echo "no VM kernel built and no compiler/make to build one"
        else
            missing="$(vdpactl_vm_missing_packages "${VDPACTL_VM_KERNEL_BUILD_PKGS[@]}" | tr '\n' ' ')"
            [[ -z "$missing" ]] ||
                echo "no VM kernel built yet and its build dependencies are missing: ${missing% } (run scripts/vm-kernel --install-deps)"
        fi
        if [[ -z "${VDPACTL_KERNEL_SOURCE_TARBALL:-}" ]] &&
            ! command -v apt-get >/dev/null 2>&1; then
            echo "no VM kernel built for kernel $(vdpactl_lane_kernel) and no apt-get to download its linux-source package"
        fi
    fi
    if ((need_java)) && ! vdpactl_find_jdk 2>/dev/null; then
        echo "no JDK >= $VDPACTL_JDK_MIN (set JAVA_HOME or install one in $VDPACTL_JDK_FOLDERS)"
    fi
    local avail_kb
    avail_kb="$(sed -n 's/^MemAvailable: *\([0-9]*\) kB/\1/p' /proc/meminfo 2>/dev/null || true)"
    if [[ -n "$avail_kb" ]] && ((avail_kb < 2560 * 1024)); then
        echo "only $((avail_kb / 1024)) MiB of memory available; the guest needs 2 GiB plus QEMU"
    fi
    return 0
}
