package org.vdpactl.fake.fault;

import java.util.ArrayList;
import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vdpactl.fake.errno.KernelError;
import org.vdpactl.sys.Errno;
import org.vdpactl.time.Clock;
import org.vdpactl.time.Resource;

/**
 * Applies {@link FaultRule}s at the fake kernel's hooks. The device side calls {@link #hit} at each
 * syscall and driver op, the netlink side at each command; a hook whose call matches a rule gets
 * its delay (charged to the device's {@link Resource} when there is one, so it serialises like
 * device work), and then its error as a {@link KernelError}. Occurrences are counted per rule, in
 * call order, so a run is repeatable under a virtual clock.
 */
public final class FaultInjector {
    private static final Logger LOG = LoggerFactory.getLogger(FaultInjector.class);

    private final Clock clock;
    private final List<FaultRule> rules = new ArrayList<>();
    private final List<long[]> matches = new ArrayList<>();
    private final List<FiredFault> fired = new ArrayList<>();
    /**
     * True once a rule exists: every device op of every device passes {@link #hit}, and without
     * rules it must not take the injector's lock (one lock for the whole kernel serialised the
     * devices of a rehearsal) nor allocate.
     */
    private volatile boolean armed;
    /** Where link rules fired by a call without its own {@link LinkPort} go (the kernel's device lookup). */
    private volatile LinkPort links = (device, up) -> LOG.warn("link rule fired on {} with no port to change", device);

    public FaultInjector(Clock clock, List<FaultRule> rules) {
        this.clock = clock;
        rules.forEach(this::addRule);
    }

    /** An injector without rules. */
    public static FaultInjector none(Clock clock) {
        return new FaultInjector(clock, List.of());
    }

    public synchronized void addRule(FaultRule rule) {
        rules.add(rule);
        matches.add(new long[1]);
        armed = true;
    }

    /** Sets where a link rule fired by a netlink call (a call with no device object) changes the link. */
    public void linkPort(LinkPort port) {
        links = port;
    }

    public synchronized List<FaultRule> rules() {
        return List.copyOf(rules);
    }

    /** Every fault that fired so far, in order. */
    public synchronized List<FiredFault> fired() {
        return List.copyOf(fired);
    }

    /**
     * The hook: counts the call against every matching rule and applies the ones that fire.
     *
     * @param device   the device the call concerns, or null
     * @param call     the call name
     * @param resource where delays are charged (the device), or null to charge the caller's clock
     * @throws KernelError when a firing rule carries an errno or a firmware timeout
     */
    public void hit(String device, String call, Resource resource) {
        hit(device, call, resource, null);
    }

    /**
     * {@link #hit(String, String, Resource)} for a call on a device that changes its function's link itself: a
     * firing link rule's port event goes to {@code port} (null: the kernel's, {@link #linkPort}) before the delays
     * and the error, as a port event the firmware raised while the call was on its way.
     */
    public void hit(String device, String call, Resource resource, LinkPort port) {
        if (!armed) {
            return;
        }
        List<FaultRule> firing = new ArrayList<>(1);
        synchronized (this) {
            if (rules.isEmpty()) {
                return;
            }
            for (int i = 0; i < rules.size(); i++) {
                FaultRule r = rules.get(i);
                if (r.matches(device, call)) {
                    long n = ++matches.get(i)[0];
                    if (r.firesOn(n)) {
                        firing.add(r);
                        fired.add(new FiredFault(device, call, n, r, clock.nanoTime()));
                    }
                }
            }
        }
        for (FaultRule r : firing) {
            if (r.changesLink()) {
                LOG.info("link {} injected on {} at {}", r.link(), device, call);
                (port != null ? port : links).setLink(device, r.link() == FaultRule.Link.UP);
            }
        }
        KernelError error = null;
        for (FaultRule r : firing) {
            LOG.info("fault injected on {} {}: {}", device, call, r);
            charge(resource, r.delayNanos());
            if (r.firmwareTimeoutNanos() > 0) {
                charge(resource, r.firmwareTimeoutNanos());
                if (error == null) {
                    error = KernelError.of(Errno.ETIMEDOUT, "injected firmware timeout on " + call);
                }
            } else if (r.errno() != 0 && error == null) {
                error = KernelError.of(r.errno(), "injected " + Errno.name(r.errno()) + " on " + call);
            }
        }
        if (error != null) {
            throw error;
        }
    }

    private void charge(Resource resource, long nanos) {
        if (nanos <= 0) {
            return;
        }
        if (resource != null) {
            resource.work(nanos);
        } else {
            clock.sleepNanos(nanos);
        }
    }
}
