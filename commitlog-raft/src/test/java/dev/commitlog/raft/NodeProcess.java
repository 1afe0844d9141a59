package dev.commitlog.raft;

import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The parent's side of one life of a {@link RaftNodeChild}: starts it, feeds what it prints to the
 * node's {@link AcknowledgedLog} and to the {@link OpsClient}, answers requests, and ends it with
 * SIGKILL. Only whole lines count: a line the kill cut (no newline yet) was never printed. The
 * read ends when the child's stdout closes, i.e. once the child is dead and every line it wrote
 * was read.
 */
final class NodeProcess implements OpsClient.Target {
    private static final int STDERR_TAIL = 3000;

    final int index;
    private final Process process;
    private final Path stderr;
    private final OutputStream stdin;
    private final AcknowledgedLog storage;
    private final OpsClient client;
    private final Thread reader;
    private final CountDownLatch ready = new CountDownLatch(1);
    private final Map<String, CompletableFuture<String[]>> replies = new ConcurrentHashMap<>();
    private final AtomicLong requests = new AtomicLong();
    private final List<String> errors = Collections.synchronizedList(new ArrayList<>());
    /** Mutations begun and returned in this life, by {@link StorageCall.Kind} ordinal. */
    private final AtomicIntegerArray begun = new AtomicIntegerArray(StorageCall.Kind.values().length);
    private final AtomicIntegerArray returned = new AtomicIntegerArray(StorageCall.Kind.values().length);
    /** Counted down when the child says it begins (returns from) a call of {@link #watchedKind}, if any. */
    private final CountDownLatch watchedBegin = new CountDownLatch(1);
    private final CountDownLatch watchedReturn = new CountDownLatch(1);
    private final StorageCall.Kind watchedKind;
    /** The call the child said it began last (reader thread only). */
    private StorageCall inFlight;
    private volatile long leaderTerm = -1;
    private volatile boolean killed;

    private NodeProcess(int index, List<String> command, Path stderr, AcknowledgedLog storage, OpsClient client, StorageCall.Kind watch)
            throws IOException {
        this.index = index;
        this.watchedKind = watch;
        this.stderr = stderr;
        this.storage = storage;
        this.client = client;
        Path fifo = Path.of(stderr.toString().replaceFirst("\\.err$", "") + ".stdout");
        makeFifo(fifo);
        // The reader opens the FIFO before the child does (each open waits for the other end).
        this.reader = new Thread(() -> readAll(fifo), "node-" + index + "-stdout");
        reader.setDaemon(true);
        reader.start();
        Process started;
        try {
            started = new ProcessBuilder(command).redirectOutput(fifo.toFile()).redirectError(stderr.toFile()).start();
        } catch (IOException e) {
            new FileOutputStream(fifo.toFile()).close(); // lets the reader's open return, and the reader end
            throw e;
        }
        this.process = started;
        this.stdin = started.getOutputStream();
    }

    /**
     * Starts the child, watching its first call of kind {@code watch} (null: none): see {@link #watchedBegin()}.
     * Its stdout is a FIFO this process reads, not {@code Process.getInputStream()}: the JDK's stream of a
     * child that dies can lose the last lines the child wrote (they were in the pipe; seen here in 8 of
     * 60 SIGKILLed children), and this harness must see every line a child printed before its death.
     */
    static NodeProcess start(int index, List<String> command, Path stderr, AcknowledgedLog storage, OpsClient client,
                             StorageCall.Kind watch) throws IOException {
        return new NodeProcess(index, command, stderr, storage, client, watch);
    }

    private static void makeFifo(Path fifo) throws IOException {
        try {
            Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).redirectErrorStream(true).start();
            String output = new String(mkfifo.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (mkfifo.waitFor() != 0) {
                throw new IOException("mkfifo " + fifo + " failed: " + output);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted making " + fifo, e);
        }
    }

    void awaitReady(Duration timeout) throws InterruptedException {
        if (!ready.await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("node " + index + " never became ready; stderr: " + stderrTail());
        }
    }

    private void readAll(Path fifo) {
        byte[] buffer = new byte[65536];
        StringBuilder partial = new StringBuilder();
        try (InputStream in = new FileInputStream(fifo.toFile())) {
            for (int n; (n = in.read(buffer)) > 0; ) {
                partial.append(new String(buffer, 0, n, StandardCharsets.US_ASCII));
                int start = 0;
                for (int newline; (newline = partial.indexOf("\n", start)) >= 0; start = newline + 1) {
                    String line = partial.substring(start, newline);
                    try {
                        dispatch(line);
                    } catch (RuntimeException e) {
                        errors.add("node " + index + ": the line '" + abbreviate(line) + "' failed: " + e);
                    }
                }
                partial.delete(0, start);
            }
        } catch (IOException e) {
            errors.add("node " + index + ": reading its output failed: " + e);
        }
        try {
            Files.deleteIfExists(fifo);
        } catch (IOException e) {
            errors.add("node " + index + ": " + e);
        }
        if (!killed) {
            errors.add("node " + index + " exited by itself; stderr: " + stderrTail());
        }
        for (CompletableFuture<String[]> reply : replies.values()) {
            reply.completeExceptionally(new IllegalStateException("node " + index + " is gone"));
        }
    }

    private void dispatch(String line) {
        String[] parts = line.split(" ");
        switch (parts[0]) {
            case RaftNodeChild.ACK -> client.acknowledged(Long.parseLong(parts[1]));
            case RaftNodeChild.FAIL -> client.failed(Long.parseLong(parts[1]));
            case RaftNodeChild.LOADED -> storage.loaded(Long.parseLong(parts[1]), StorageCall.parseRuns(parts[2]));
            case RaftNodeChild.BEGIN -> {
                inFlight = StorageCall.decode(parts, 1);
                begun.incrementAndGet(inFlight.kind().ordinal());
                storage.beginning(inFlight);
                if (watchedKind == inFlight.kind()) {
                    watchedBegin.countDown();
                }
            }
            case RaftNodeChild.DONE -> {
                StorageCall.Kind kind = StorageCall.Kind.of(parts[1]);
                StorageCall call = inFlight != null && inFlight.kind() == kind && inFlight.index() == Long.parseLong(parts[2])
                        ? inFlight : StorageCall.marker(kind, Long.parseLong(parts[2]));
                returned.incrementAndGet(kind.ordinal());
                storage.done(call, Integer.parseInt(parts[3]));
                inFlight = null;
                if (watchedKind == kind) {
                    watchedReturn.countDown();
                }
            }
            case RaftNodeChild.LEADER -> leaderTerm = Long.parseLong(parts[1]);
            case RaftNodeChild.FOLLOWER -> leaderTerm = -1;
            case "READY" -> ready.countDown();
            case RaftNodeChild.OPS, RaftNodeChild.STATUS, RaftNodeChild.ENTRIES, RaftNodeChild.SNAPSHOT -> {
                CompletableFuture<String[]> reply = replies.remove(parts[0] + " " + parts[1]);
                if (reply != null) {
                    reply.complete(parts);
                }
            }
            default -> errors.add("node " + index + ": unexpected line '" + abbreviate(line) + "'");
        }
    }

    private static String abbreviate(String line) {
        return line.length() <= 300 ? line : line.substring(0, 300) + "...";
    }

    @Override
    public boolean submit(long op, OpsClient ignored) {
        return write(RaftNodeChild.APPLY + " " + op);
    }

    private boolean write(String line) {
        synchronized (stdin) {
            try {
                stdin.write((line + "\n").getBytes(StandardCharsets.US_ASCII));
                stdin.flush();
                return true;
            } catch (IOException e) {
                return false;
            }
        }
    }

    /** Sends {@code word id} and returns the reply's words (the word, the id, then what follows). */
    String[] request(String word, Duration timeout) throws Exception {
        String key = word + " " + requests.incrementAndGet();
        CompletableFuture<String[]> reply = new CompletableFuture<>();
        replies.put(key, reply);
        if (!write(key)) {
            replies.remove(key);
            throw new IllegalStateException("node " + index + " is gone");
        }
        return reply.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Counted down once the child said it begins a call of the kind it was started to watch. */
    CountDownLatch watchedBegin() {
        return watchedBegin;
    }

    /** Counted down once the child said such a call returned. */
    CountDownLatch watchedReturn() {
        return watchedReturn;
    }

    int begun(StorageCall.Kind kind) {
        return begun.get(kind.ordinal());
    }

    int returned(StorageCall.Kind kind) {
        return returned.get(kind.ordinal());
    }

    /** The term it leads in, or -1. */
    long leaderTerm() {
        return alive() ? leaderTerm : -1;
    }

    boolean alive() {
        return !killed && process.isAlive();
    }

    /**
     * SIGKILL; returns once every line it printed was read. Its storage's expectation is then fixed
     * ({@link AcknowledgedLog#lost}) and every operation still pending on it has an unknown outcome.
     */
    void kill() throws InterruptedException {
        killed = true;
        process.destroyForcibly(); // SIGKILL on Linux
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new AssertionError("node " + index + " did not exit after SIGKILL");
        }
        reader.join(30_000);
        if (reader.isAlive()) {
            errors.add("node " + index + ": its output did not end within 30 s of its death");
        }
        storage.lost();
        client.abandon(this);
        if (process.exitValue() != 137) {
            errors.add("node " + index + " exited with " + process.exitValue() + ", not by SIGKILL; stderr: " + stderrTail());
        }
    }

    List<String> errors() {
        return new ArrayList<>(errors);
    }

    String stderrTail() {
        try {
            if (!Files.exists(stderr)) {
                return "(none)";
            }
            String text = Files.readString(stderr);
            return text.substring(Math.max(0, text.length() - STDERR_TAIL));
        } catch (IOException e) {
            return "(unreadable: " + e + ")";
        }
    }
}
