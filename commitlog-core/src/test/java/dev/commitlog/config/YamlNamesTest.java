package dev.commitlog.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class YamlNamesTest {
    @Test
    void yamlNamesAreTheDocumentedOnes() {
        assertEquals("periodic | batch | group | adaptive", YamlNames.allowed(SyncMode.class));
        assertEquals("tolerate_tail | strict | skip_corrupt", YamlNames.allowed(ReplayPolicy.class));
        assertEquals("stop | die", YamlNames.allowed(CommitFailurePolicy.class));
    }

    @Test
    void everyConstantRoundTrips() {
        for (Class<? extends Enum<?>> type : List.of(SyncMode.class, ReplayPolicy.class, CommitFailurePolicy.class)) {
            for (Enum<?> constant : type.getEnumConstants()) {
                assertSame(constant, parse(constant.getDeclaringClass(), YamlNames.of(constant)));
            }
        }
    }

    @Test
    void parsingIsExact() {
        ConfigException e = assertThrows(ConfigException.class,
                () -> YamlNames.parse(ConfigKey.COMMITLOG_SYNC, "PERIODIC", SyncMode.class));
        assertEquals("commitlog_sync: 'PERIODIC' is not one of periodic | batch | group | adaptive (e.g. periodic)", e.getMessage());
        assertEquals("PERIODIC", e.value());
    }

    @Test
    void configKeysUseTheSameMapping() {
        assertEquals("periodic_commitlog_sync_lag_block", ConfigKey.PERIODIC_COMMITLOG_SYNC_LAG_BLOCK.toString());
        assertTrue(ConfigKey.fromYaml("commitlog_file_mode").isPresent());
        assertTrue(ConfigKey.fromYaml("COMMITLOG_FILE_MODE").isEmpty());
    }

    private static <E extends Enum<E>> E parse(Class<E> type, String text) {
        return YamlNames.parse(ConfigKey.COMMITLOG_SYNC, text, type);
    }
}
