package org.vdpactl.fake.netlink;

import static org.vdpactl.abi.UapiGenlCtrlAttribute.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.vdpactl.netlink.NetlinkAbi.*;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.vdpactl.fake.FakeKernel;
import org.vdpactl.fake.FakeProcess;
import org.vdpactl.fake.errno.KernelError;
import org.vdpactl.mgmt.VdpaCommand;
import org.vdpactl.netlink.GenlPolicy;
import org.vdpactl.netlink.GenlRequest;
import org.vdpactl.netlink.GenlSocket;
import org.vdpactl.netlink.MessageWriter;
import org.vdpactl.netlink.NetlinkException;
import org.vdpactl.sys.Errno;

/**
 * The fake's CTRL_CMD_GETPOLICY beyond what the conformance suite asks of every kernel: the start
 * callback's refusals (answered with NLMSG_ERROR, before any message), one command with
 * CTRL_ATTR_OP, and nlctrl's own policies (ctrl_dumppolicy_start, net/netlink/genetlink.c).
 */
class FakePolicyDumpTest {
    /** One dump on a fresh fake kernel (6.12), closed afterwards. */
    private static GenlPolicy dump(Consumer<MessageWriter> attrs) {
        try (FakeKernel kernel = FakeKernel.builder().build()) {
            FakeNetlink.install(kernel);
            try (FakeProcess proc = kernel.newProcess(); GenlSocket s = GenlSocket.open(proc)) {
                return GenlPolicy.parse(s.dump(GenlRequest.of("GETPOLICY", GENL_ID_CTRL, CTRL_CMD_GETPOLICY, 1, attrs)));
            }
        }
    }

    @Test
    void theStartRefusesANamelessAndAnUnknownFamily() {
        NetlinkException none = assertThrows(NetlinkException.class, () -> dump(w -> { }));
        assertEquals(Errno.EINVAL, none.errno());
        NetlinkException unknown = assertThrows(NetlinkException.class, () -> dump(w -> w.putString(CTRL_ATTR_FAMILY_NAME, "nosuch")));
        assertEquals(Errno.ENOENT, unknown.errno());
        NetlinkException badId = assertThrows(NetlinkException.class, () -> dump(w -> w.putU16(CTRL_ATTR_FAMILY_ID, 999)));
        assertEquals(Errno.ENOENT, badId.errno());
    }

    @Test
    void oneCommandWithCtrlAttrOp() {
        GenlPolicy p = dump(w -> {
            w.putString(CTRL_ATTR_FAMILY_NAME, "vdpa");
            w.putU32(CTRL_ATTR_OP, VdpaCommand.DEV_NEW.number());
        });
        assertEquals(Set.of(VdpaCommand.DEV_NEW.number()), p.ops().keySet());
        assertEquals(Optional.empty(), p.ops().get(VdpaCommand.DEV_NEW.number()).dumpPolicy(), "DEV_NEW has no dumpit");
        assertEquals(Set.of(1, 2, 4, 10, 12, 13, 17, 20), p.requestAttributes(VdpaCommand.DEV_NEW.number()));
        NetlinkException noSuchOp = assertThrows(NetlinkException.class, () -> dump(w -> {
            w.putString(CTRL_ATTR_FAMILY_NAME, "vdpa");
            w.putU32(CTRL_ATTR_OP, 99);
        }));
        assertEquals(Errno.ENOENT, noSuchOp.errno());
    }

    @Test
    void nlctrlListsGetfamilyForDoOnlyAndGetpolicyForDumpOnly() {
        GenlPolicy p = dump(w -> w.putU16(CTRL_ATTR_FAMILY_ID, GENL_ID_CTRL));
        // GETFAMILY's dump is not validated (GENL_DONT_VALIDATE_DUMP); GETPOLICY has only a dumpit
        assertEquals(new GenlPolicy.OpPolicy(CTRL_CMD_GETFAMILY, Optional.of(0), Optional.empty()), p.ops().get(CTRL_CMD_GETFAMILY));
        assertEquals(new GenlPolicy.OpPolicy(CTRL_CMD_GETPOLICY, Optional.empty(), Optional.of(1)), p.ops().get(CTRL_CMD_GETPOLICY));
        assertEquals(Set.of(CTRL_ATTR_FAMILY_ID.number(), CTRL_ATTR_FAMILY_NAME.number()), p.policies().get(0).keySet());
        assertEquals(Set.of(CTRL_ATTR_FAMILY_ID.number(), CTRL_ATTR_FAMILY_NAME.number(), CTRL_ATTR_OP.number()), p.policies().get(1).keySet());
        assertEquals(new GenlPolicy.AttrRule(NL_ATTR_TYPE_NUL_STRING, null, null, null, 15), p.policies().get(1).get(CTRL_ATTR_FAMILY_NAME.number()));
    }

    @Test
    void aFamilyWithoutPoliciesIsEnodata() {
        FakeGenlFamily bare = new FakeGenlFamily() {
            @Override
            public String name() {
                return "bare";
            }

            @Override
            public int version() {
                return 1;
            }

            @Override
            public int maxAttr() {
                return 0;
            }

            @Override
            public boolean netnsOk() {
                return true;
            }

            @Override
            public int resvStartOp() {
                return 0;
            }

            @Override
            public List<Op> ops() {
                return List.of(new Op(1, false, (r, out) -> { }, null, null, true, true));
            }
        };
        KernelError e = assertThrows(KernelError.class, () -> PolicyDump.start(20, bare, null));
        assertEquals(Errno.ENODATA, e.errno());
    }
}
