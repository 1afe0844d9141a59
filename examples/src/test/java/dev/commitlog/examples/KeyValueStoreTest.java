package dev.commitlog.examples;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
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
}
