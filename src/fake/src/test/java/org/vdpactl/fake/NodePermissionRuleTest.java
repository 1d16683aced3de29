package org.vdpactl.fake;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.vdpactl.ffi.gen.libc.libc_h;
import org.vdpactl.sys.Errno;
import org.vdpactl.sys.FileStat;
import org.vdpactl.sys.SyscallException;

/** Modelled udev rules for /dev nodes, and credentials of fake processes (open(2)'s permission check). */
class NodePermissionRuleTest {
    private static final int KVM = 36;
    private static final int RW = libc_h.O_RDWR() | libc_h.O_CLOEXEC();

    private static int errno(Runnable call) {
        return assertThrows(SyscallException.class, call::run).errno();
    }

    @Test
    void aGroupRuleLetsMembersOpenTheNodeAndNobodyElse() {
        try (FakeKernel k = FakeKernel.builder().nodeRule(NodePermissionRule.group("vhost-vdpa-*", KVM, 0660)).build();
             FakeProcess member = k.newProcess(); FakeProcess stranger = k.newProcess()) {
            member.setCredentials(Credentials.user(1000, 1000).withGroup(KVM));
            stranger.setCredentials(Credentials.user(1001, 1001));
            FileStat st = stranger.stat("/dev/vhost-vdpa-0");
            assertEquals(0660, st.mode());
            assertEquals(0, st.uid());
            assertEquals(KVM, st.gid());
            member.close(member.open("/dev/vhost-vdpa-0", RW));
            assertEquals(Errno.EACCES, errno(() -> stranger.open("/dev/vhost-vdpa-0", RW)));
        }
    }

    @Test
    void rulesApplyToExistingNodesAndTheLastMatchWins() {
        try (FakeKernel k = FakeKernel.builder().build(); FakeProcess user = k.newProcess()) {
            user.setCredentials(Credentials.user(1000, 1000));
            assertEquals(Errno.EACCES, errno(() -> user.open("/dev/vhost-vdpa-1", RW)), "devtmpfs default 0600 root");
            k.addNodeRule(new NodePermissionRule("vhost-vdpa-?", 1000, 1000, 0600));
            k.addNodeRule(new NodePermissionRule("vhost-vdpa-0", 0, 0, 0600));
            user.close(user.open("/dev/vhost-vdpa-1", RW));
            assertEquals(Errno.EACCES, errno(() -> user.open("/dev/vhost-vdpa-0", RW)), "a later rule overrides");
            assertEquals(1000, user.stat("/dev/vhost-vdpa-1").uid());
        }
    }

    @Test
    void ownerBitsDecideForTheOwnerEvenWhenOthersMayMore() {
        try (FakeKernel k = FakeKernel.builder().nodeRule(new NodePermissionRule("vhost-vdpa-0", 1000, 0, 0406)).build();
             FakeProcess owner = k.newProcess()) {
            owner.setCredentials(Credentials.user(1000, 1000));
            assertEquals(Errno.EACCES, errno(() -> owner.open("/dev/vhost-vdpa-0", RW)));
            owner.close(owner.open("/dev/vhost-vdpa-0", libc_h.O_RDONLY()));
        }
    }

    @Test
    void aForkedChildKeepsItsParentsCredentials() {
        try (FakeKernel k = FakeKernel.builder().build(); FakeProcess user = k.newProcess()) {
            user.setCredentials(Credentials.user(1000, 1000));
            try (FakeProcess child = user.fork()) {
                assertEquals(Errno.EACCES, errno(() -> child.open("/dev/vhost-vdpa-0", RW)));
            }
        }
    }

    @Test
    void sysfsFilesFollowTheirModesForUnprivilegedReaders() {
        try (FakeKernel k = FakeKernel.builder().build(); FakeProcess user = k.newProcess()) {
            user.setCredentials(Credentials.user(1000, 1000));
            user.close(user.open("/sys/bus/vdpa/devices/vdpa0/vhost-vdpa-0/dev", libc_h.O_RDONLY()));
            assertEquals(Errno.EACCES, errno(() -> user.open("/sys/bus/vdpa/drivers/vhost_vdpa/bind", libc_h.O_RDONLY())),
                    "a write-only 0200 attribute");
        }
    }
}
