package org.vdpactl.cli;

/** {@link DevAddAttributeCases} on the fake kernel speaking 6.1. */
class Fake61DevAddAttributeTest extends FakeDevAddAttributeTest {
    @Override
    String profile() {
        return "6.1";
    }
}
