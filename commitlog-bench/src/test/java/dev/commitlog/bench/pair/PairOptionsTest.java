package dev.commitlog.bench.pair;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.commitlog.bench.UsageException;
import dev.commitlog.bench.sut.Contender;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class PairOptionsTest {

    private static PairOptions parse(String... args) throws UsageException {
        return PairOptions.parse(List.of(args));
    }

    private static String error(String... args) {
        return assertThrows(UsageException.class, () -> parse(args)).getMessage();
    }

    @Test
    void defaultsAndEveryFlag() throws Exception {
        PairOptions d = parse("--a", "adaptive", "--b", "batch");
        assertEquals(PairOptions.DEFAULT_THREADS, d.threads());
        assertEquals(DuelTiming.DEFAULT, d.timing());
        assertEquals(1.0, d.floor());

        PairOptions o = parse("--a=group-2ms", "--b", "RocksDB", "--threads", "1,256", "--floor", "0.95", "--pairs", "30",
                "--slice-ms", "300", "--settle-ms", "0", "--warmup-seconds", "0.5", "--record-bytes", "512");
        assertEquals("group-2ms", o.a());
        assertEquals("rocksdb", o.b());
        assertEquals(List.of(1, 256), o.threads());
        assertEquals(0.95, o.floor());
        assertEquals(new DuelTiming(30, Duration.ofMillis(300), Duration.ZERO, Duration.ofMillis(500)), o.timing());
        assertEquals(512, o.recordBytes());
        assertEquals("adaptive-nogather", parse("--a", "adaptive-nogather", "--b", "adaptive").a(), "ablation columns too");
        assertTrue(parse("--help").help());
    }

    @Test
    void aModesLabelCarriesItsSectionsAsTheSweepWritesThem() throws Exception {
        PairOptions o = parse("--a", "Adaptive+AES-GCM", "--b", "adaptive");
        assertEquals("adaptive+aes", o.a(), "the sweep's label: lower case, +aes");
        assertEquals("adaptive", o.b());
        assertEquals("group-2ms+lz4+aes", parse("--a", "group-2ms+aes+lz4", "--b", "batch").a(), "codec first, as the sweep");
        assertEquals("batch+zstd", parse("--a", "batch+zstd", "--b", "batch").a());
        assertFalse(o.json(), "random bytes unless --payload json");
        assertTrue(parse("--a", "batch+lz4", "--b", "batch", "--payload", "json").json());
        assertFalse(parse("--a", "batch+lz4", "--b", "batch", "--payload=random").json());
    }

    @Test
    void sectionsOnAnythingButAModeOrABadSectionAreNamed() {
        for (String column : List.of("rocksdb+lz4", "adaptive-nogather+aes")) {
            assertTrue(error("--a", column, "--b", "batch").contains("--a: '" + column + "': sections (+lz4, +zstd, +aes (or "
                    + "+aes-gcm)) apply to this build's commit-log modes only: periodic, batch, group-Nms, adaptive"),
                    error("--a", column, "--b", "batch"));
        }
        assertTrue(error("--a", "batch", "--b", "baseline-batch+lz4", "--baseline-jar", "old.jar")
                .contains("apply to this build's commit-log modes only"));
        assertTrue(error("--a", "batch+lz4+zstd", "--b", "batch").contains("--a: 'batch+lz4+zstd' names two codecs"));
        assertTrue(error("--a", "batch+aes+aes-gcm", "--b", "batch").contains("names encryption twice"));
        assertTrue(error("--a", "batch", "--b", "batch+gzip").contains("--b: 'batch+gzip': unknown section 'gzip' (+lz4, +zstd"));
        assertTrue(error("--a", "batch+", "--b", "batch").contains("unknown section ''"));
        assertTrue(error("--a", "group+lz4", "--b", "batch").contains("--a: unknown column 'group+lz4'"));
        assertTrue(error("--a", "batch", "--b", "batch", "--payload", "xml").contains("--payload: 'xml' is not one of random, json"));
    }

    @Test
    void aSectionedLabelOpensTheModeWithThoseSections() throws Exception {
        Contender c = ContenderLabels.create(ContenderLabels.check("--a", "adaptive+aes+lz4", false), null);
        assertEquals("adaptive+lz4+aes", c.label(), "the contender's own label is the checked one");
        assertTrue(c.settings().endsWith("[sections: compression lz4, encryption aes-gcm]"), c.settings());
        Contender g = ContenderLabels.create(ContenderLabels.check("--b", "group-2ms+aes", false), null);
        assertEquals("group-2ms+aes", g.label());
        assertTrue(g.settings().endsWith("[sections: compression none, encryption aes-gcm]"), g.settings());
        assertEquals("batch", ContenderLabels.create("batch", null).label());
    }

    @Test
    void baselineColumnsNeedTheBaselineJarAndAMode() throws Exception {
        assertTrue(error("--a", "adaptive", "--b", "baseline-adaptive").contains("needs --baseline-jar"));
        assertTrue(error("--a", "adaptive", "--b", "baseline-fast", "--baseline-jar", "old.jar").contains("names no mode"));
        assertTrue(error("--a", "adaptive", "--b", "baseline-group", "--baseline-jar", "old.jar").contains("names no mode"));
        PairOptions o = parse("--a", "adaptive", "--b", "baseline-group-2ms", "--baseline-jar", "old.jar");
        assertEquals("baseline-group-2ms", o.b());
        assertEquals(java.nio.file.Path.of("old.jar"), o.baseline());
    }

    @Test
    void badCommandLinesAreNamed() {
        assertTrue(error("--b", "batch").contains("--a is required"));
        assertTrue(error("--a", "group", "--b", "batch").contains("--a: unknown column 'group'"), "a group column needs its window");
        assertTrue(error("--a", "batch", "--b", "nosuch").contains("group-Nms"), "the message lists the columns");
        assertTrue(error("--a", "batch", "--b", "batch", "--pairs", "5").contains("--pairs: '5' is not an integer in 6..1000"));
        assertTrue(error("--a", "batch", "--b", "batch", "--floor", "0").contains("--floor: '0' is not a number above 0"));
        assertTrue(error("--a", "batch", "--b", "batch", "--seconds", "3").contains("unknown argument --seconds"));
        assertTrue(error("--a", "batch", "--a", "adaptive", "--b", "batch").contains("--a is given twice"));
        assertTrue(error("--a", "batch", "--b").contains("--b needs a value"));
        assertTrue(error("--a", "batch", "--b", "batch", "--threads", "1,1").contains("1 is listed twice"));
    }
}
