package org.vdpactl.lane.qemu;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** QEMU's monitor protocol (QMP) on a unix socket: greeting, qmp_capabilities, then commands. */
public final class QmpConnection implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final SocketChannel channel;
    private final BufferedReader in;
    private final OutputStream out;
    /** Events seen while waiting for replies, in arrival order. */
    private final List<JsonNode> events = new ArrayList<>();

    private QmpConnection(SocketChannel channel) throws IOException {
        this.channel = channel;
        this.in = new BufferedReader(new InputStreamReader(Channels.newInputStream(channel), StandardCharsets.UTF_8));
        this.out = Channels.newOutputStream(channel);
        readLine(); // greeting
        execute("qmp_capabilities", null);
    }

    /** Connects once QEMU has created the socket (it does so before it answers the first qtest command). */
    static QmpConnection connect(Path socket, Process qemu) throws IOException, InterruptedException {
        for (int i = 0; i < 1200 && !Files.exists(socket); i++) {
            if (!qemu.isAlive()) {
                throw new IOException("QEMU exited with status " + qemu.exitValue() + " before its QMP socket appeared");
            }
            Thread.sleep(50);
        }
        return new QmpConnection(SocketChannel.open(UnixDomainSocketAddress.of(socket)));
    }

    private JsonNode readLine() throws IOException {
        String line = in.readLine();
        if (line == null) {
            throw new IOException("QMP: QEMU closed the monitor");
        }
        return JSON.readTree(line);
    }

    /** Runs a command and returns its "return" value; an "error" reply becomes an IOException. */
    public JsonNode execute(String command, Object arguments) throws IOException {
        var req = JSON.createObjectNode().put("execute", command);
        if (arguments != null) {
            req.set("arguments", JSON.valueToTree(arguments));
        }
        out.write((JSON.writeValueAsString(req) + "\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
        while (true) {
            JsonNode reply = readLine();
            if (reply.has("event")) {
                events.add(reply);
                continue;
            }
            if (reply.has("error")) {
                throw new IOException("QMP " + command + ": " + reply.get("error").path("desc").asText());
            }
            return reply.get("return");
        }
    }

    /** Waits for an event of this name (already received or to come). */
    JsonNode awaitEvent(String name) throws IOException {
        for (JsonNode e : events) {
            if (e.get("event").asText().equals(name)) {
                events.remove(e);
                return e;
            }
        }
        while (true) {
            JsonNode e = readLine();
            if (e.has("event") && e.get("event").asText().equals(name)) {
                return e;
            }
            if (e.has("event")) {
                events.add(e);
            }
        }
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
