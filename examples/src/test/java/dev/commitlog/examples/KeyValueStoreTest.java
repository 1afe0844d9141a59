package dev.commitlog.examples;

import static org.junit.jupiter.api.Assertions.*;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KeyValueStoreTest {
    @TempDir
    Path dir;

    @Test
    void valuesComeBackAfterReopening() throws Exception {
        Map<String, String> expected = new HashMap<>();
        try (KeyValueStore store = KeyValueStore.open(dir)) {
            for (int i = 0; i < 500; i++) {
                store.put("key-" + (i % 97), "value-" + i + "-ünïcode");
                expected.put("key-" + (i % 97), "value-" + i + "-ünïcode");
            }
            store.delete("key-5");
            expected.remove("key-5");
            assertEquals(expected, store.snapshot());
        }
        try (KeyValueStore reopened = KeyValueStore.open(dir)) {
            assertEquals(expected, reopened.snapshot(), "replay on start rebuilt the map");
            assertNull(reopened.get("key-5"));
            reopened.put("key-5", "back");
        }
        try (KeyValueStore again = KeyValueStore.open(dir)) {
            assertEquals("back", again.get("key-5"));
            assertEquals(expected.size() + 1, again.snapshot().size());
        }
    }

    @Test
    void theExampleRebuildsTheMapByReplayAndKeepsItsDirectory() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        KeyValueStore.Reopened first = KeyValueStore.run(dir, new PrintStream(out, true, StandardCharsets.UTF_8));
        assertEquals(40, first.written().size(), "50 keys put, 10 deleted");
        assertEquals("visits=192", first.written().get("user-42"));
        assertEquals(first.written(), first.replayed());
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("replay rebuilt the same 40 keys"), out.toString(StandardCharsets.UTF_8));

        KeyValueStore.main(new String[] {dir.toString()}); // a second run in the same directory starts from what the first left
        try (KeyValueStore store = KeyValueStore.open(dir)) {
            assertEquals(first.written(), store.snapshot(), "the same writes again: the same map");
        }
        try (Stream<Path> files = Files.list(dir)) {
            assertTrue(files.anyMatch(file -> file.getFileName().toString().endsWith(".log")), "a given directory is kept");
        }
    }
}
