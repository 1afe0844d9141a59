package dev.commitlog.replay;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import java.util.Random;

/**
 * Where the mutator's decisions come from: Jazzer's fuzzer input (coverage-guided) or a seeded
 * {@link Random} (the bounded, reproducible fast tier). The mutator is the same for both.
 */
interface FuzzChoices {
    /** A value in {@code [min, max]}. */
    int intInRange(int min, int max);

    long anyLong();

    boolean bool();

    /** Up to {@code maxLength} bytes. */
    byte[] bytes(int maxLength);

    static FuzzChoices of(FuzzedDataProvider data) {
        return new FuzzChoices() {
            @Override
            public int intInRange(int min, int max) {
                return data.consumeInt(min, max);
            }

            @Override
            public long anyLong() {
                return data.consumeLong();
            }

            @Override
            public boolean bool() {
                return data.consumeBoolean();
            }

            @Override
            public byte[] bytes(int maxLength) {
                return data.consumeBytes(maxLength);
            }
        };
    }

    static FuzzChoices of(Random random) {
        return new FuzzChoices() {
            @Override
            public int intInRange(int min, int max) {
                return min + (int) ((random.nextLong() & Long.MAX_VALUE) % ((long) max - min + 1));
            }

            @Override
            public long anyLong() {
                return random.nextLong();
            }

            @Override
            public boolean bool() {
                return random.nextBoolean();
            }

            @Override
            public byte[] bytes(int maxLength) {
                byte[] bytes = new byte[random.nextInt(maxLength + 1)];
                random.nextBytes(bytes);
                return bytes;
            }
        };
    }
}
