package dev.commitlog.examples;

import static org.junit.jupiter.api.Assertions.*;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReplicaFeedTest {
    @TempDir
    Path dir;

    @Test
    void theReplicaSeesThePrimarysRecords() throws Exception {
        try (KeyValueStore primary = KeyValueStore.open(dir)) {
            primary.put("before", "the replica started");
            try (ReplicaFeed replica = ReplicaFeed.follow(primary.log(), 0)) {
                long last = 0;
                for (int i = 0; i < 300; i++) {
                    last = primary.put("k" + (i % 50), "v" + i);
                }
                primary.delete("k0");
                long end = primary.log().durablePosition();
                awaitApplied(replica, end);
                assertEquals(primary.snapshot(), replica.snapshot());
                assertTrue(replica.appliedUpTo() > last);
            }
        }
    }

    @Test
    void aReplicaResumesFromWhereItStopped() throws Exception {
        try (KeyValueStore primary = KeyValueStore.open(dir)) {
            primary.put("a", "1");
            long resumeAt;
            try (ReplicaFeed first = ReplicaFeed.follow(primary.log(), 0)) {
                awaitApplied(first, primary.log().durablePosition());
                resumeAt = first.appliedUpTo();
            }
            primary.put("b", "2");
            try (ReplicaFeed second = ReplicaFeed.follow(primary.log(), resumeAt)) {
                awaitApplied(second, primary.log().durablePosition());
                assertEquals(java.util.Map.of("b", "2"), second.snapshot(), "only what followed the resume position");
            }
        }
    }

    @Test
    void theExampleEndsWithTheReplicaHoldingThePrimarysMap() throws Exception {
        ReplicaFeed.Replicated result = ReplicaFeed.run(dir, new PrintStream(OutputStream.nullOutputStream()));
        assertEquals(39, result.primary().size(), "40 sensors, one deleted");
        assertEquals(result.primary(), result.replica());
        assertTrue(result.appliedUpTo() >= result.durablePosition(), result.toString());
    }

    private static void awaitApplied(ReplicaFeed replica, long position) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (replica.appliedUpTo() < position) {
            assertTrue(System.nanoTime() < deadline, "the replica applied up to " + replica.appliedUpTo() + ", not " + position);
            Thread.sleep(5);
        }
    }
}
