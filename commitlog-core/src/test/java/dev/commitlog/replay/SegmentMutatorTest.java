package dev.commitlog.replay;

import static org.junit.jupiter.api.Assertions.*;

import dev.commitlog.config.ReplayPolicy;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The fuzz harness's own model of the damage it does, on scripted choices. */
class SegmentMutatorTest {
    private static final int FORGE_LENGTH = SegmentMutator.Kind.FORGE_LENGTH.ordinal();
    private static final int FORGE_RECORD = SegmentMutator.Kind.FORGE_RECORD.ordinal();
    private static final int SEGMENT_ONE = 1; // index among the pristine files
    private static final int ANYWHERE = 2; // offset(): a uniform offset, the next choice

    /**
     * The fuzzer's finding after 600,326 executions: a record forged over a forged empty frame,
     * whose header was then replaced by a valid padding header. The outer checksum still held
     * (CRC32C is linear), the replayer rightly delivered the record, and the harness called it
     * "never written there".
     */
    @Test
    void aForgedRecordEditedUnderAValidChecksumIsTheRecordAsItNowStands() {
        FuzzChoices script = scripted(3,
                FORGE_RECORD, SEGMENT_ONE, ANYWHERE, 72, 0, // an empty record at offset 72
                FORGE_RECORD, SEGMENT_ONE, ANYWHERE, 64, 1266, // a record at 64 whose payload holds it
                FORGE_LENGTH, SEGMENT_ONE, ANYWHERE, 72, 0, 1); // the header at 72: length 0, valid checksum
        PristineLog pristine = PristineLog.get();
        SegmentMutator.Mutated mutated = SegmentMutator.mutate(pristine, script);
        assertEquals(3, mutated.applied().size(), mutated.applied().toString());
        long position = pristine.basePosition(mutated.files().navigableKeySet().stream().toList().get(SEGMENT_ONE)) + 64;
        List<byte[]> atPosition = mutated.forged().get(position);
        assertEquals(2, atPosition.size(), "the payload as forged, and as it stands after the edit that kept its checksum");
        assertFalse(Arrays.equals(atPosition.get(0), atPosition.get(1)));

        assertTrue(ReplayProperties.check(pristine, mutated, ReplayPolicy.SKIP_CORRUPT) > 0);
    }

    /** Choices from a script: each value must be in the range asked for. */
    private static FuzzChoices scripted(int... values) {
        Deque<Integer> queue = new ArrayDeque<>();
        for (int value : values) {
            queue.add(value);
        }
        return new FuzzChoices() {
            @Override
            public int intInRange(int min, int max) {
                int value = next();
                assertTrue(value >= min && value <= max, value + " outside [" + min + ", " + max + "]");
                return value;
            }

            @Override
            public long anyLong() {
                return next();
            }

            @Override
            public boolean bool() {
                return next() != 0;
            }

            @Override
            public byte[] bytes(int maxLength) {
                return new byte[next()];
            }

            private int next() {
                assertFalse(queue.isEmpty(), "the script ran out of choices");
                return queue.remove();
            }
        };
    }
}
