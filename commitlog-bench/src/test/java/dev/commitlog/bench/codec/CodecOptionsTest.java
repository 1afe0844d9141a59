package dev.commitlog.bench.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.commitlog.bench.UsageException;
import dev.commitlog.bench.pair.DuelTiming;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class CodecOptionsTest {

    private static CodecOptions parse(String... args) throws UsageException {
        return CodecOptions.parse(List.of(args));
    }

    private static String error(String... args) {
        return assertThrows(UsageException.class, () -> parse(args)).getMessage();
    }

    private static List<String> names(List<Encoding> encodings) {
        return encodings.stream().map(Encoding::name).toList();
    }

    @Test
    void withoutPairsOnePassOverEveryEncoding() throws Exception {
        CodecOptions o = parse();
        assertEquals(0, o.pairs());
        assertEquals(names(Encoding.all()), names(o.encodings()));
        assertEquals(List.of(1, 8, 64), o.threads());
        assertEquals(2, o.seconds());
    }

    @Test
    void withPairsTheHandCodecAgainstRawReadAgainstTheIssuesTarget() throws Exception {
        CodecOptions o = parse("--pairs", "40");
        assertEquals(40, o.pairs());
        assertEquals(List.of("hand"), names(o.encodings()));
        assertEquals("raw", o.against().name());
        assertEquals(0.9, o.floor());
        assertEquals(new DuelTiming(40, DuelTiming.DEFAULT.slice(), DuelTiming.DEFAULT.settle(), DuelTiming.DEFAULT.warmup()), o.timing());

        CodecOptions p = parse("--pairs", "6", "--only", "hand,raw,protobuf", "--against", "raw+encode", "--slice-ms", "100",
                "--floor", "0.75", "--threads", "64");
        assertEquals(List.of("hand", "raw", "protobuf"), names(p.encodings()));
        assertEquals("raw+encode", p.against().name());
        assertEquals(Duration.ofMillis(100), p.timing().slice());
        assertEquals(0.75, p.floor());
        assertEquals(List.of(64), p.threads());
        assertEquals(List.of("hand", "protobuf"), names(parse("--pairs", "6", "--only", "hand,raw,protobuf").encodings()),
                "the reference is not paired with itself");
    }

    @Test
    void flagsOfOneModeAreRefusedInTheOther() {
        assertTrue(error("--against", "raw").contains("--against needs --pairs"));
        assertTrue(error("--slice-ms", "100").contains("--slice-ms needs --pairs"));
        assertTrue(error("--pairs", "10", "--seconds", "2").contains("--seconds is the single pass's cell length"));
        assertTrue(error("--pairs", "10", "--only", "raw").contains("nothing to pair"));
        assertTrue(error("--pairs", "5").contains("--pairs: '5' is not an integer in 6..1000"));
        assertTrue(error("--pairs", "10", "--against", "yaml").contains("no encoding named 'yaml'"));
        assertTrue(error("--rounds", "3").contains("unknown argument --rounds"));
    }
}
