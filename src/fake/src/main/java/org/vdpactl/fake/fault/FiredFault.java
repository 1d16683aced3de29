package org.vdpactl.fake.fault;

/**
 * A record of one fault that fired, for logs and test assertions.
 *
 * @param device     device the call was made on (null for device-less calls)
 * @param call       the call name
 * @param occurrence which matching call of the rule it was (1-based)
 * @param rule       the rule that fired
 * @param atNanos    the caller's clock when it fired
 */
public record FiredFault(String device, String call, long occurrence, FaultRule rule, long atNanos) {
}
