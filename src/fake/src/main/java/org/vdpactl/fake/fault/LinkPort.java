package org.vdpactl.fake.fault;

/**
 * Where a firing link rule ({@link FaultRule#link()}) sends its port event: the PCI function behind the device the
 * call concerns. The device side passes its own (it holds the device mutex, so the event is handled as the driver's
 * notifier would handle it, without the bus lock); calls without a device object (netlink) go through the kernel's.
 */
@FunctionalInterface
public interface LinkPort {
    /**
     * The function's port goes up or down; a function already in that state sees no event.
     *
     * @param device the device the call concerns (null for a call that names none: the rule changes nothing)
     */
    void setLink(String device, boolean up);
}
