package dev.commitlog.codecs.example;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import net.openhft.chronicle.bytes.Bytes;
import org.junit.jupiter.api.Test;

/**
 * The hand codec writes the same bytes whether it reads ASCII notes from the String's own array or
 * scans them char by char (the path it takes when the JVM does not let Chronicle read the array),
 * and each is exactly as long as its bound and reads back equal.
 */
class WalRecordBytesCodecTest {
    private static final List<String> NOTES = List.of("", "a", "n°1", "ascii, seven", "eight ch", "order 12 shipped to warehouse 12 lorem",
            "crème brûlée, ½ price", "café ☕ 𝄞 naïve —", "lone \uD800 surrogate", "x".repeat(200), "é".repeat(100));

    @Test
    void theTestJvmReadsStringArraysSoTheInPlacePathIsTheOneUnderTest() {
        assertTrue(AsciiText.READABLE, "the test JVM runs with the project's Chronicle flags: java.lang is open");
        assertArrayEquals("ascii".getBytes(StandardCharsets.US_ASCII), AsciiText.bytesOf("ascii"));
        assertEquals(null, AsciiText.bytesOf("crème"), "Latin-1 but not ASCII");
        assertEquals(null, AsciiText.bytesOf("n°"), "in the byte-wise tail");
        assertEquals(null, AsciiText.bytesOf("☕"), "not Latin-1");
    }

    @Test
    void bothPathsWriteTheSameExactlyBoundBytes() {
        WalRecordBytesCodec inPlace = new WalRecordBytesCodec(true);
        WalRecordBytesCodec charWise = new WalRecordBytesCodec(false);
        for (int i = 0; i < NOTES.size(); i++) {
            WalRecord record = WalRecord.sample(i);
            record.note = NOTES.get(i);
            byte[] a = encode(inPlace, record);
            byte[] b = encode(charWise, record);
            assertArrayEquals(b, a, "note " + i);
            assertEquals(inPlace.maxEncodedLength(record), a.length, "note " + i);
            assertEquals(charWise.maxEncodedLength(record), b.length, "note " + i);
            WalRecord expected = WalRecord.sample(i);
            expected.note = new String(NOTES.get(i).getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8); // a lone surrogate reads back as '?'
            assertEquals(expected, inPlace.decode(Bytes.wrapForRead(a)), "note " + i);
        }
    }

    private static byte[] encode(WalRecordBytesCodec codec, WalRecord record) {
        Bytes<?> bytes = Bytes.allocateElasticDirect(1024);
        try {
            codec.encode(record, bytes);
            return bytes.toByteArray();
        } finally {
            bytes.releaseLast();
        }
    }
}
