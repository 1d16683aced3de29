package org.vdpactl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.vdpactl.testsupport.LoadedClasses;

/**
 * What {@code vdpactl --backend fake dev list} needs at start-up, seen in a vdpactl JVM of its own: the fake's
 * profiles and state are read by the ABI module's strict reader, so Jackson's data binding (hundreds of classes and
 * a deserializer built by reflection per record type, most of what the command loaded beyond the kernel's command:
 * docs/benchmarks.md, part classes) does not start; it still starts when a command prints JSON or saves the state.
 * Nor does it link an FFM downcall: the fake answers its netlink in Java, and the state file, a regular file, is read
 * by the JDK (org.vdpactl.sys.InputFile); each downcall costs a stub and lambda forms generated at run time, which
 * the AOT cache does not keep. Nor does it read an annotation: the JDK answers the first read of each annotation type
 * with a proxy class generated at run time, which the AOT cache does not keep either.
 */
class StartupDataBindingTest {
    @TempDir
    Path dir;

    @Test
    void fakeDevListReadsProfilesAndStateWithoutJacksonDataBinding() throws Exception {
        Path state = dir.resolve("state.json");
        // the state exists, as on a machine where vdpactl ran before (a first run's save is a write: Jackson)
        assertEquals(0, Main.run(new PrintWriter(Writer.nullWriter()), new PrintWriter(Writer.nullWriter()),
                "--backend", "fake", "--fake-state", state.toString(), "dev", "add", "extra", "--mgmtdev", "vdpasim_net"));
        assertTrue(Files.exists(state));
        LoadedClasses list = LoadedClasses.of(dir, Main.class, "fake-dev-list", "--backend", "fake", "--fake-state", state.toString(),
                "dev", "list");
        assertEquals(0, list.exitCode(), list.stderr());
        assertTrue(list.names().contains("org.vdpactl.abi.json.RecordJson"), "the state was not read at all: " + list.names().size());
        assertEquals(List.of(), list.names().stream().filter(n -> n.startsWith("jdk.internal.foreign.abi.DowncallStub")
                || n.equals("org.vdpactl.sys.InputFile$Native")).toList(), "dev list on the fake linked a downcall");
        // the fake's host memory (mmap, memfd) makes its Panama seam on the first mapping: a listing maps nothing
        assertFalse(list.names().contains("org.vdpactl.sys.PanamaSyscalls"), "dev list made the Panama seam");
        // a listing reads no config space: the generated layout class (its VarHandles) is not used
        assertFalse(list.names().contains("org.vdpactl.ffi.gen.vhost.virtio_net_config"), "dev list laid out a config space");
        // (the tree-model types of the --json printer's signatures are loaded when dev's listing links: a few interfaces)
        assertEquals(List.of(), list.names().stream().filter(n -> n.equals("com.fasterxml.jackson.databind.ObjectMapper")
                || n.startsWith("com.fasterxml.jackson.databind.deser.")).toList(), "dev list started Jackson's data binding");
        // the default devices include mlx5 ones: their driver's ops are made, their latency model only on first use
        assertTrue(list.names().contains("org.vdpactl.fake.device.Mlx5VnetOps"), "no mlx5 device was restored");
        assertFalse(list.names().contains("org.vdpactl.fake.mlx5.Mlx5Device"), "dev list built the mlx5 latency model");
        // the state's device names are checked by the name rules; ASCII names need no Unicode normaliser
        assertEquals(List.of(), list.names().stream().filter(n -> n.startsWith("jdk.internal.icu.")).toList(),
                "checking ASCII device names started the JDK's Unicode normaliser");
        // the command line's models are written down at build time (org.vdpactl.cli.CommandSpecs): no annotation is read,
        // so the JDK generates no proxy class for one (eight for this command when picocli read them)
        assertEquals(List.of(), list.names().stream().filter(n -> n.startsWith("jdk.proxy") || n.startsWith("com.sun.proxy")).toList(),
                "dev list read annotations at run time");

        LoadedClasses json = LoadedClasses.of(dir, Main.class, "fake-dev-list-json", "--backend", "fake", "--fake-state", state.toString(),
                "--json", "dev", "list");
        assertEquals(0, json.exitCode(), json.stderr());
        assertTrue(json.names().contains("com.fasterxml.jackson.databind.ObjectMapper"), "--json prints with Jackson");
    }
}
