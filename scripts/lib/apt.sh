# shellcheck shell=bash
# apt-get for the machine set-up of scripts/test, scripts/test-ansible and scripts/vm-kernel. On a fresh
# machine (a cloud VM's unattended upgrades, a desktop's package manager) another apt or dpkg often
# holds apt's locks for minutes, and apt-get then fails at once with status 100. These functions wait
# for the locks instead, for at most VDPACTL_APT_LOCK_TIMEOUT seconds (default 600), and say on stderr
# who holds them while waiting. Source from bash; defines functions only.
#
#   vdpactl_apt_get [sudo] ARG...    waits for the locks, then apt-get -o DPkg::Lock::Timeout=N ARG...
#                                    (with a leading "sudo": through sudo); returns apt-get's status,
#                                    or 1 when the locks stayed held past the timeout
#   vdpactl_apt_wait_for_locks       only the wait; 0 when no lock is held, 1 after the timeout
#   vdpactl_lock_holder FILE         prints "pid N (command line)" of a process holding a lock on
#                                    FILE (from /proc/locks: no root needed); fails when none does
#
# apt's own DPkg::Lock::Timeout covers the dpkg frontend lock only, not the package lists' lock that
# `apt-get update` takes: the wait covers both, plus the archives' lock of `apt-get install`. The lock
# files are where apt-config says apt keeps its lists, its archives and dpkg's status.

vdpactl__apt_msg() {
    printf '%s: %s\n' "${VDPACTL_PROG:-scripts/test}" "$*" >&2
}

# The lock files apt and dpkg take, one a line.
vdpactl__apt_lock_files() {
    local LISTS="" STATUS="" ARCHIVES=""
    eval "$(apt-config shell LISTS Dir::State::Lists/d STATUS Dir::State::status/f ARCHIVES Dir::Cache::Archives/d 2>/dev/null)"
    [[ -n "$STATUS" ]] && printf '%s\n' "$(dirname "$STATUS")/lock-frontend" "$(dirname "$STATUS")/lock"
    [[ -n "$LISTS" ]] && printf '%s\n' "${LISTS%/}/lock"
    [[ -n "$ARCHIVES" ]] && printf '%s\n' "${ARCHIVES%/}/lock"
    return 0
}

vdpactl_lock_holder() {
    local file=$1 d ino key pid cmd
    d="$(stat -L -c '%d' "$file" 2>/dev/null)" || return 1
    ino="$(stat -L -c '%i' "$file")"
    # /proc/locks names the file as MAJOR:MINOR:INODE, the device numbers in hex (fs/locks.c)
    key="$(printf '%02x:%02x:%s' $(((d >> 8) & 0xfff)) $(((d & 0xff) | ((d >> 12) & 0xfff00))) "$ino")"
    # "N: POSIX  ADVISORY  WRITE PID MAJ:MIN:INODE START END"; "N: -> ..." lines are waiters
    pid="$(awk -v key="$key" '$2 != "->" && $6 == key { print $5; exit }' /proc/locks 2>/dev/null)"
    [[ -n "$pid" ]] || return 1
    if [[ "$pid" =~ ^[0-9]+$ ]] && [[ -r "/proc/$pid/cmdline" ]]; then
        cmd="$(tr '\0\n' '  ' <"/proc/$pid/cmdline" 2>/dev/null)"
        printf 'pid %s (%s)\n' "$pid" "${cmd% }"
    else
        printf 'another process\n' # an open file description lock (pid -1) or one of another pid namespace
    fi
}

vdpactl_apt_wait_for_locks() {
    local timeout="${VDPACTL_APT_LOCK_TIMEOUT:-600}" waited=0 file holder said="" locks=()
    mapfile -t locks < <(vdpactl__apt_lock_files)
    while :; do
        holder=""
        for file in "${locks[@]}"; do
            holder="$(vdpactl_lock_holder "$file")" && break
            holder=""
        done
        if [[ -z "$holder" ]]; then
            [[ -n "$said" ]] && vdpactl__apt_msg "apt's locks are free after ${waited} s"
            return 0
        fi
        if ((waited >= timeout)); then
            vdpactl__apt_msg "$file is still held by $holder after ${timeout} s; giving up (run again when it is done, or set VDPACTL_APT_LOCK_TIMEOUT)"
            return 1
        fi
        if [[ "$file $holder" != "$said" ]]; then
            vdpactl__apt_msg "waiting for $file, held by $holder (at most ${timeout} s; another package manager is running, e.g. a fresh machine's unattended upgrades)"
            said="$file $holder"
        fi
        sleep 1
        waited=$((waited + 1))
    done
}

vdpactl_apt_get() {
    local -a sudo=()
    if [[ "${1:-}" == sudo ]]; then
        sudo=(sudo)
        shift
    fi
    vdpactl_apt_wait_for_locks || return 1
    # a lock taken between the wait and apt-get's own start: apt waits for the dpkg lock itself
    "${sudo[@]}" env DEBIAN_FRONTEND="${DEBIAN_FRONTEND:-noninteractive}" \
        apt-get -o "DPkg::Lock::Timeout=${VDPACTL_APT_LOCK_TIMEOUT:-600}" "$@"
}
