package org.vdpactl.fake.fault;

import java.util.Locale;

/**
 * The calls into a device's driver that the fault injector is asked about besides the ioctls (which it is asked about
 * by their uapi names): the ops of vdpa_config_ops and of the management device that a device model charges, and the
 * file operations of the /dev/vhost-vdpa-N node. The one list of them: a model charges an op by its constant, and a
 * fault rule naming a call that is on no list is refused ({@code FaultCalls}), so a typo cannot turn a fault test
 * into a clean run.
 */
public enum DriverCall {
    OPEN, WRITE,
    RESET, SET_STATUS, SET_DRIVER_FEATURES, SET_VQ_NUM, SET_VQ_ADDRESS, SET_VQ_STATE, GET_VQ_STATE, SET_VQ_READY,
    SET_GROUP_ASID, SET_MAP, DMA_MAP, DMA_UNMAP, RESET_MAP, SUSPEND, RESUME,
    CHANGE_NUM_QPS, DEV_ADD, DEV_DEL, DEV_SET_ATTR;

    private final String kernelName = name().toLowerCase(Locale.ROOT);

    /** The name the kernel gives it (the op's field, the file operation), as fault rules and the op counters name it. */
    public String kernelName() {
        return kernelName;
    }
}
