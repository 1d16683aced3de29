package org.vdpactl.vhost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.vdpactl.vhost.VirtioConfigDecoder.MAX_CONFIG_BYTES;

import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tag;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.statistics.Statistics;

/** The config decoders on arbitrary bytes (jqwik; the examples are VirtioConfigDecoderTest). */
class VirtioConfigDecoderProperties {
    /** Any bytes: a value or a typed error, never an exception; a value never claims fields the bytes lack. */
    @Property
    @Tag("fuzz")
    void netDecoderTotalOnArbitraryBytes(@ForAll @Size(max = 64) byte[] bytes) {
        DecodeResult<NetConfig> r = VirtioConfigDecoder.net(bytes);
        if (r instanceof DecodeResult.Ok<NetConfig> ok) {
            NetConfig c = ok.value();
            assertEquals(bytes.length, c.length());
            assertEquals(17, c.mac().length());
            assertEquals(bytes.length >= 12, c.mtu() != null);
            assertEquals(bytes.length >= 24, c.supportedHashTypes() != null);
        } else {
            assertTrue(bytes.length < 6);
        }
    }

    @Property
    @Tag("fuzz")
    void blkDecoderTotalOnArbitraryBytes(@ForAll @Size(max = 128) byte[] bytes) {
        DecodeResult<BlkConfig> r = VirtioConfigDecoder.blk(bytes);
        if (r instanceof DecodeResult.Ok<BlkConfig> ok) {
            BlkConfig c = ok.value();
            assertTrue(bytes.length >= 8);
            assertEquals(bytes.length >= 20, c.geometry() != null);
            assertEquals(bytes.length >= 96, c.zoned() != null);
            assertTrue(c.capacityBytes() >= 0);
        } else {
            assertEquals(ConfigParseError.Kind.TOO_SHORT, r.failure().orElseThrow().kind());
        }
    }

    @Provide
    Arbitrary<Integer> deviceIds() {
        return Arbitraries.frequencyOf(Tuple.of(2, Arbitraries.just(VirtioDeviceId.NET.id())),
                Tuple.of(2, Arbitraries.just(VirtioDeviceId.BLOCK.id())), Tuple.of(3, Arbitraries.integers()));
    }

    /** Mostly config-sized, sometimes around the 4096-byte cap. */
    @Provide
    Arbitrary<byte[]> configBytes() {
        return Arbitraries.frequencyOf(Tuple.of(4, Arbitraries.bytes().array(byte[].class).ofMaxSize(128)),
                Tuple.of(1, Arbitraries.integers().between(MAX_CONFIG_BYTES - 2, MAX_CONFIG_BYTES + 2)
                        .flatMap(n -> Arbitraries.randomValue(random -> {
                            byte[] b = new byte[n]; // jqwik's own byte[] generator is slow at this size
                            random.nextBytes(b);
                            return b;
                        }))));
    }

    /**
     * Any device id, any bytes: more than 4096 bytes is TOO_LONG for every type, net and block get
     * their own decoder's answer, every other type keeps the bytes as hex under its own id.
     */
    @Property
    @Tag("fuzz")
    void decodeDispatchesByDeviceIdAndCapsTheLength(@ForAll("deviceIds") int deviceId, @ForAll("configBytes") byte[] bytes) {
        DecodeResult<DeviceConfig> r = VirtioConfigDecoder.decode(deviceId, bytes);
        String kind;
        if (bytes.length > MAX_CONFIG_BYTES) {
            assertEquals(Optional.of(ConfigParseError.Kind.TOO_LONG), r.failure().map(ConfigParseError::kind),
                    bytes.length + " bytes for device id " + deviceId);
            assertEquals(bytes.length, r.failure().orElseThrow().actual());
            kind = "too long";
        } else if (deviceId == VirtioDeviceId.NET.id()) {
            assertEquals(VirtioConfigDecoder.net(bytes).map(c -> (DeviceConfig) c), r);
            kind = "net";
        } else if (deviceId == VirtioDeviceId.BLOCK.id()) {
            assertEquals(VirtioConfigDecoder.blk(bytes).map(c -> (DeviceConfig) c), r);
            kind = "blk";
        } else {
            assertEquals(new RawConfig(deviceId, HexFormat.of().formatHex(bytes)), r.orElseThrow());
            assertEquals(bytes.length, r.orElseThrow().length());
            kind = "raw";
        }
        Statistics.collect(kind);
        Statistics.coverage(c -> {
            for (String k : List.of("too long", "net", "blk", "raw")) {
                c.check(k).count(n -> n > 0);
            }
        });
    }
}
