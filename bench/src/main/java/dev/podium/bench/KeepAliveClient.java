package dev.podium.bench;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * The page benchmark's load tool: one keep-alive HTTP/1.1 connection that sends a GET and reads the whole response
 * (content-length or chunked), like wrk or h2load. It shares the machine with the service, and the JDK's HTTP client
 * spends more CPU per request and per kilobyte than the trivial page costs the service (docs/PERFORMANCE.md). Not
 * thread-safe: one per client thread.
 */
final class KeepAliveClient implements AutoCloseable {

    /** A response: its status and, when asked for, its body. */
    record Response(int status, byte[] body) {
        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    private final String host;
    private final int port;
    private final byte[] buffer = new byte[1 << 16];
    private Socket socket;
    private InputStream in;
    private OutputStream out;

    KeepAliveClient(String host, int port) {
        this.host = host;
        this.port = port;
    }

    /** GET {@code path}; the body is read and dropped. */
    int get(String path) throws IOException {
        return exchange(path, null).status();
    }

    /** GET {@code path}, keeping the body. */
    Response fetch(String path) throws IOException {
        return exchange(path, new ByteArrayOutputStream());
    }

    private Response exchange(String path, ByteArrayOutputStream body) throws IOException {
        try {
            return send(path, body);
        } catch (IOException e) {
            close();
            throw e;
        }
    }

    private Response send(String path, ByteArrayOutputStream body) throws IOException {
        if (socket == null) {
            socket = new Socket(host, port);
            socket.setTcpNoDelay(true);
            socket.setSoTimeout(30_000);
            in = new BufferedInputStream(socket.getInputStream(), 1 << 16);
            out = socket.getOutputStream();
        }
        out.write(("GET " + path + " HTTP/1.1\r\nHost: " + host + ":" + port + "\r\n\r\n")
                .getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
        String status = line();
        long length = -1;
        boolean chunked = false;
        boolean closing = false;
        for (String h = line(); !h.isEmpty(); h = line()) {
            int colon = h.indexOf(':');
            String name = h.substring(0, Math.max(0, colon)).trim().toLowerCase(Locale.ROOT);
            String value = h.substring(colon + 1).trim();
            switch (name) {
                case "content-length" -> length = Long.parseLong(value);
                case "transfer-encoding" ->
                    chunked = value.toLowerCase(Locale.ROOT).contains("chunked");
                case "connection" -> closing = value.equalsIgnoreCase("close");
                default -> {}
            }
        }
        if (chunked) {
            for (long size = chunkSize(); size > 0; size = chunkSize()) {
                read(size, body);
                line();
            }
            while (!line().isEmpty()) {
                // trailers
            }
        } else if (length >= 0) {
            read(length, body);
        } else {
            throw new IOException("neither content-length nor chunked");
        }
        if (closing) {
            close();
        }
        return new Response(Integer.parseInt(status.split(" ")[1]), body == null ? new byte[0] : body.toByteArray());
    }

    private long chunkSize() throws IOException {
        String size = line();
        int ext = size.indexOf(';');
        return Long.parseLong((ext < 0 ? size : size.substring(0, ext)).trim(), 16);
    }

    private void read(long length, ByteArrayOutputStream body) throws IOException {
        for (long left = length; left > 0; ) {
            int n = in.read(buffer, 0, (int) Math.min(buffer.length, left));
            if (n < 0) {
                throw new IOException("connection closed after " + (length - left) + " of " + length + " bytes");
            }
            if (body != null) {
                body.write(buffer, 0, n);
            }
            left -= n;
        }
    }

    private String line() throws IOException {
        StringBuilder sb = new StringBuilder(64);
        for (int c = in.read(); c != '\n'; c = in.read()) {
            if (c < 0) {
                throw new IOException("connection closed");
            }
            if (c != '\r') {
                sb.append((char) c);
            }
        }
        return sb.toString();
    }

    @Override
    public void close() {
        try {
            if (socket != null) {
                socket.close();
            }
        } catch (IOException ignored) {
            // closing a broken connection
        }
        socket = null;
    }
}
