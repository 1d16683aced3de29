package org.vdpactl.cli;

/** {@link DevAddAttributeCases} on the fake kernel speaking 7.2. */
class Fake72DevAddAttributeTest extends FakeDevAddAttributeTest {
    @Override
    String profile() {
        return "7.2";
    }
}
