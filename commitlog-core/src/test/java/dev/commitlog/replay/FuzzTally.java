package dev.commitlog.replay;

import java.util.concurrent.atomic.AtomicLong;

/** What a fuzz test ran: inputs executed and replayed records verified, printed when its class ends. */
final class FuzzTally {
    static {
        // Recovery logs a line per open at INFO; a million of them would only slow the fuzzer down.
        // Must be set before LogRecovery's logger is created (slf4j-simple reads it then): a fuzz
        // test class makes its tally in a static field, before any test runs.
        System.setProperty("org.slf4j.simpleLogger.log.dev.commitlog.replay.LogRecovery", "warn");
    }

    private final String test;
    private final AtomicLong executions = new AtomicLong();
    private final AtomicLong verified = new AtomicLong();

    FuzzTally(String test) {
        this.test = test;
    }

    /** One input ran, and {@code records} replayed records were verified. */
    void count(long records) {
        verified.addAndGet(records);
        executions.incrementAndGet();
    }

    void print() {
        System.out.printf("%s: %,d inputs executed, %,d replayed records verified%n", test, executions.get(), verified.get());
    }
}
