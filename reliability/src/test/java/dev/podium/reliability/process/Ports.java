package dev.podium.reliability.process;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.ThreadLocalRandom;

/** Ports for the processes the suite starts: free ones in 19000–19999 only, which this project keeps for such tests. */
public final class Ports {

    private Ports() {}

    /** The first of {@code count} consecutive free ports, from a random start in the range. */
    public static int freeRun(int count) {
        for (int attempt = 0; attempt < 200; attempt++) {
            int base = 19000 + ThreadLocalRandom.current().nextInt(1000 - count);
            boolean free = true;
            for (int p = base; p < base + count && free; p++) {
                free = isFree(p);
            }
            if (free) {
                return base;
            }
        }
        throw new IllegalStateException("no " + count + " free consecutive ports in 19000-19999");
    }

    public static boolean isFree(int port) {
        try (ServerSocket s = new ServerSocket()) {
            s.setReuseAddress(false);
            s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    public static boolean listening(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    public static void awaitListening(int port, int seconds, String what) {
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        while (System.nanoTime() < deadline) {
            if (listening(port)) {
                return;
            }
            sleep(200);
        }
        throw new IllegalStateException(what + " did not listen on port " + port + " within " + seconds + " s");
    }

    /** A pause of the suite's own timing (a fault held for a while, a poll interval); interruption ends the case. */
    public static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
