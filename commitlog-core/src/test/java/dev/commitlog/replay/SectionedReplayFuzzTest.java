package dev.commitlog.replay;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.commitlog.replay.PristineLog.Settings;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link ReplayFuzzTest} over compressed and encrypted logs (format version 3): the pristine log is
 * written with LZ4 + AES-GCM or with zstd, new or with a reused tail holding an earlier life's
 * sections ({@link PristineLog#sectioned}); {@link SegmentMutator} damages it, with the mutations
 * that know the sections' layout ({@link SectionMutations}: header fields, bodies with both CRCs
 * recomputed, padding, the zero word, sections copied elsewhere) among the rest; live replay,
 * recovery and replay run over it under a random policy, and {@link ReplayProperties} must hold:
 * the open refuses with {@code CorruptLogException} (or, for a section whose header verifies and
 * names a key id the provider lacks, {@code MissingKeyException}), or replays only records appended
 * there, byte for byte, in increasing positions; nothing intact is lost; a segment kept for reuse
 * holds no section that verifies.
 *
 * <ul>
 *   <li>Fast tier: {@link #seededInputs()}, seeded inputs spread over the four pristine logs.</li>
 *   <li>Slow tier: {@link #coverageGuided}, Jazzer driving the same mutator: {@code mvn -B verify
 *       -Pslow -pl commitlog-core -Dtest=SectionedReplayFuzzTest}; it first replays the inputs in
 *       {@code src/test/resources/dev/commitlog/replay/SectionedReplayFuzzTestInputs/coverageGuided}.
 *       The first choice picks the codec and cipher, the second a new or a reused tail.</li>
 * </ul>
 */
class SectionedReplayFuzzTest {
    /** Seeded inputs in the fast tier (about 10 ms each); {@code -Dcommitlog.test.sectionedFuzzInputs=N} runs more. */
    static final int SEEDED_INPUTS = Integer.getInteger("commitlog.test.sectionedFuzzInputs", 600);
    private static final Settings[] SETTINGS = {Settings.LZ4_AES_GCM, Settings.ZSTD};
    private static final FuzzTally TALLY = new FuzzTally("SectionedReplayFuzzTest");

    /** Written before Jazzer's agent is installed, as {@link ReplayFuzzTest} explains. */
    @BeforeAll
    static void writePristineLogs() {
        for (Settings settings : SETTINGS) {
            PristineLog.sectioned(settings, false);
            PristineLog.sectioned(settings, true);
        }
    }

    @Test
    @Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void seededInputs() {
        for (int input = 0; input < SEEDED_INPUTS; input++) {
            PristineLog pristine = PristineLog.sectioned(SETTINGS[input % 2], input / 2 % 2 == 1);
            TALLY.count(ReplayFuzzTest.run(pristine, FuzzChoices.of(new Random(input)), null));
        }
    }

    @Tag("slow")
    @FuzzTest(maxExecutions = 1_000_000, maxDuration = "4h")
    void coverageGuided(FuzzedDataProvider data) {
        TALLY.count(ReplayFuzzTest.fuzzed(data,
                choices -> PristineLog.sectioned(SETTINGS[choices.intInRange(0, SETTINGS.length - 1)], choices.bool())));
    }

    @AfterAll
    static void figures() {
        TALLY.print();
    }
}
