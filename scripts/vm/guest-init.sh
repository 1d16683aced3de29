#!/bin/busybox sh
# shellcheck shell=sh
# /init of the real-kernel lane's initramfs (built by scripts/vm-run; runs as PID 1
# under busybox sh, only busybox applets are available until the chroot).
#
# 1. mounts proc/sys/devtmpfs and the control share (9p tag vdpactl_ctl, a temporary
#    host directory holding vm.env and job.sh; results are written back there);
# 2. mounts the host's / read-only over 9p (tag vdpactl_root) under a tmpfs overlay at
#    /newroot, then the writable 9p shares (tag vdpactl_rwN) at their host paths;
# 3. creates the default vDPA devices with the host's iproute2 `vdpa` (unless disabled);
# 4. writes ctl/started, runs job.sh chrooted into /newroot with stdout/stderr appended to
#    ctl/stdout and ctl/stderr (the host streams those files), writes ctl/rc;
# 5. powers off. Any failure before step 4 prints "VDPACTL-VM: SETUP-FAILED: <reason>"
#    on the console and powers off (the host then exits 125 without retrying).

/bin/busybox mkdir -p /bin /sbin /usr/bin /usr/sbin /proc /sys /dev /ctl /lower /upper /newroot
/bin/busybox --install -s
export PATH=/bin:/sbin:/usr/bin:/usr/sbin

console() { echo "VDPACTL-VM: $*" >/dev/console; }

off() {
    sync
    # A reset, not a power-off: the kernel has no ACPI (scripts/vm/kernel.config) and QEMU
    # runs with -no-reboot, so the reset ends QEMU.
    reboot -f
    # not reached; keep PID 1 alive until the reset happens
    while :; do sleep 1; done
}

setup_failed() {
    console "SETUP-FAILED: $*"
    [ -d /ctl/.vdpactl ] && echo "$*" >/ctl/setup-failed
    off
}

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null || true
# The initramfs has no /dev/console node, so the kernel could not give us one: reopen.
exec </dev/console >/dev/console 2>&1
console "BOOTED $(cut -d' ' -f1 /proc/uptime)"

P9="trans=virtio,version=9p2000.L,msize=524288"

mount -t 9p -o "$P9" vdpactl_ctl /ctl || setup_failed "cannot mount the control share (9p tag vdpactl_ctl)"
[ -f /ctl/vm.env ] || setup_failed "no vm.env in the control share"
# vm.env sets: NO_DEVICES (0|1), RW_COUNT, RW_PATH_1..N (host paths of writable shares),
# CRASH_BOOT (0|1, test hook)
# shellcheck disable=SC1091 # written by scripts/vm-run at run time
. /ctl/vm.env

mount -t 9p -o "$P9,ro,cache=loose" vdpactl_root /lower ||
    setup_failed "cannot mount the host root (9p tag vdpactl_root)"
mount -t tmpfs -o mode=0755 tmpfs /upper
mkdir -p /upper/data /upper/work
mount -t overlay -o lowerdir=/lower,upperdir=/upper/data,workdir=/upper/work overlay /newroot ||
    setup_failed "cannot mount the overlay root (CONFIG_OVERLAY_FS?)"

R=/newroot
mount -t proc proc "$R/proc" || setup_failed "mount /proc"
mount -t sysfs sysfs "$R/sys" || setup_failed "mount /sys"
mount -t devtmpfs devtmpfs "$R/dev" || setup_failed "mount /dev (CONFIG_DEVTMPFS?)"
mkdir -p "$R/dev/pts" "$R/dev/shm"
mount -t devpts -o newinstance,ptmxmode=0666 devpts "$R/dev/pts" || true
mount -t tmpfs -o mode=1777 tmpfs "$R/dev/shm"
for d in tmp run; do
    mount -t tmpfs -o mode=1777 tmpfs "$R/$d" || setup_failed "mount /$d"
done
chmod 0755 "$R/run"
# Host daemons' files must not leak in: give the guest its own /var/tmp and a clean mtab.
mount -t tmpfs -o mode=1777 tmpfs "$R/var/tmp" 2>/dev/null || true
mount -t debugfs debugfs "$R/sys/kernel/debug" 2>/dev/null || true

i=1
while [ "$i" -le "${RW_COUNT:-0}" ]; do
    eval "p=\$RW_PATH_$i"
    # shellcheck disable=SC2154 # p is set by the eval above
    mkdir -p "$R$p" 2>/dev/null || true
    mount -t 9p -o "$P9,cache=mmap" "vdpactl_rw$i" "$R$p" ||
        setup_failed "cannot mount writable share $i at $p"
    i=$((i + 1))
done

# Test hook for vm-run's boot-retry logic (VDPACTL_VM_TEST_CRASH_BOOTS on the host).
if [ "${CRASH_BOOT:-0}" = 1 ]; then
    console "CRASH_BOOT requested: panicking before the command starts"
    echo c >/proc/sysrq-trigger
fi

hostname vdpactl-vm
ip link set lo up 2>/dev/null || true

mkdir -p "$R/run/vdpactl"
cp /ctl/job.sh "$R/run/vdpactl/job.sh" || setup_failed "cannot copy job.sh"

if [ "${NO_DEVICES:-0}" != 1 ]; then
    if chroot "$R" /bin/sh -c 'command -v vdpa' >/dev/null 2>&1; then
        out=$(chroot "$R" vdpa dev add name vdpa0 mgmtdev vdpasim_net mac 02:00:00:00:00:01 2>&1) ||
            setup_failed "vdpa dev add vdpa0 (vdpasim_net) failed: $out"
        out=$(chroot "$R" vdpa dev add name vdpa1 mgmtdev vdpasim_blk 2>&1) ||
            setup_failed "vdpa dev add vdpa1 (vdpasim_blk) failed: $out"
        n=0
        while [ ! -c "$R/dev/vhost-vdpa-1" ] && [ "$n" -lt 50 ]; do
            sleep 0.1
            n=$((n + 1))
        done
        if [ ! -c "$R/dev/vhost-vdpa-0" ] || [ ! -c "$R/dev/vhost-vdpa-1" ]; then
            setup_failed "vdpa devices created but /dev/vhost-vdpa-0/1 did not appear (CONFIG_VIRTIO_VDPA set?)"
        fi
    else
        echo "vm-run: iproute2 'vdpa' not found on the host; default devices not created" >>/ctl/stderr
    fi
fi

cut -d' ' -f1 /proc/uptime >/ctl/started.tmp && mv /ctl/started.tmp /ctl/started
console "STARTED $(cut -d' ' -f1 /proc/uptime)"
# A PA-mode vDPA device (6.1's vdpa_sim: use_va false) pins every page it maps and counts
# them against RLIMIT_MEMLOCK, 8 MiB by default: the command runs with the limit lifted, as
# libvirt lifts it for a QEMU with vDPA devices (docs/vm-lane.md).
ulimit -l unlimited || setup_failed "ulimit -l unlimited"
chroot "$R" /bin/sh /run/vdpactl/job.sh </dev/null >>/ctl/stdout 2>>/ctl/stderr
rc=$?
echo "$rc" >/ctl/rc.tmp && mv /ctl/rc.tmp /ctl/rc
console "EXIT $rc"
off
