package dev.commitlog;

import static org.junit.jupiter.api.Assertions.*;

import dev.commitlog.SectionedLogs.Sections;
import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.Compression;
import dev.commitlog.config.Encryption;
import dev.commitlog.config.ReplayPolicy;
import dev.commitlog.config.SyncMode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seeded damage to compressed and encrypted logs: a log is written once per setting, then each input
 * copies its files, damages them at random (flipped bytes, zeroed or random runs, a cut file,
 * anywhere: segment headers, section headers, bodies, padding), and opens the copy under a random
 * replay policy. Whatever the damage: the open either refuses with {@link CorruptLogException} or
 * replays only records that were appended, byte for byte at the position they were appended at, in
 * increasing positions; it never throws anything else and never hands out a record it did not
 * verify. The fast test runs 150 inputs per setting; the slow one 3,000.
 */
class SectionedFuzzTest {
    private static final long SEED = Long.getLong("commitlog.test.seed", System.nanoTime());

    @TempDir
    Path dir;

    @Test
    void damagedSectionsAreNeverRecords() throws Exception {
        run(150);
    }

    @Tag("slow")
    @Test
    void damagedSectionsAreNeverRecordsManyInputs() throws Exception {
        run(3_000);
    }

    private void run(int inputs) throws Exception {
        for (Sections sections : List.of(new Sections(Compression.LZ4, Encryption.AES_GCM), new Sections(Compression.ZSTD, Encryption.NONE))) {
            Path pristine = Files.createDirectories(dir.resolve("pristine-" + sections));
            CommitLogConfig config = sections.apply(SectionedLogs.config(pristine, SyncMode.BATCH)).build();
            Map<Long, byte[]> appended = new TreeMap<>();
            try (CommitLog log = CommitLog.open(config, sections.options().build())) {
                Random random = new Random(7);
                for (int i = 0; i < 600; i++) {
                    byte[] record = SectionedLogs.json(random, i, 20 + random.nextInt(300));
                    appended.put(log.append(record, 0, record.length), record);
                }
            }
            int refused = 0;
            long verified = 0;
            for (int input = 0; input < inputs; input++) {
                long seed = SEED + input;
                Random random = new Random(seed);
                Path copy = dir.resolve("input-" + input);
                copyDamaged(pristine, copy, random);
                ReplayPolicy policy = ReplayPolicy.values()[random.nextInt(ReplayPolicy.values().length)];
                String what = sections + " input " + input + " (seed " + seed + ", " + policy + ")";
                CommitLogConfig damaged = config.toBuilder().directory(copy).replayPolicy(policy).build();
                try (CommitLog log = CommitLog.open(damaged, sections.options().corruptionListener((f, o, p, r, a) -> { }).build())) {
                    long previous = -1;
                    for (TestLogs.Entry entry : TestLogs.replayAll(log)) {
                        assertTrue(entry.position() > previous, what + ": positions increase");
                        previous = entry.position();
                        assertArrayEquals(appended.get(entry.position()), entry.payload(), what + ": the record at " + entry.position());
                        verified++;
                    }
                } catch (CorruptLogException e) {
                    refused++;
                } catch (RuntimeException | IOException | Error e) {
                    throw new AssertionError(what + ": " + e, e);
                }
                deleteTree(copy);
            }
            System.out.printf("sectioned fuzz %s: %d inputs, %d refused, %d records verified (seed %d)%n", sections, inputs, refused,
                    verified, SEED);
            assertTrue(verified > 0, "some inputs replayed records");
        }
    }

    /** Copies the segment files of {@code from} into {@code to}, with one to four pieces of damage in random files. */
    private static void copyDamaged(Path from, Path to, Random random) throws IOException {
        Files.createDirectories(to);
        List<Path> segments = SectionedLogs.segmentFiles(from);
        Map<Path, byte[]> files = new HashMap<>();
        for (Path segment : segments) {
            files.put(to.resolve(segment.getFileName()), Files.readAllBytes(segment));
        }
        List<Path> targets = List.copyOf(files.keySet());
        for (int damage = 1 + random.nextInt(4); damage > 0; damage--) {
            Path target = targets.get(random.nextInt(targets.size()));
            byte[] bytes = files.get(target);
            // Most damage where the data is: the first few KiB of a file hold its header and sections.
            int at = random.nextInt(4) == 0 ? random.nextInt(bytes.length) : random.nextInt(Math.min(bytes.length, 16 * 1024));
            switch (random.nextInt(4)) {
                case 0 -> bytes[at] ^= (byte) (1 << random.nextInt(8));
                case 1 -> {
                    for (int i = at; i < Math.min(bytes.length, at + 1 + random.nextInt(64)); i++) {
                        bytes[i] = 0;
                    }
                }
                case 2 -> {
                    for (int i = at; i < Math.min(bytes.length, at + 1 + random.nextInt(64)); i++) {
                        bytes[i] = (byte) random.nextInt();
                    }
                }
                default -> files.put(target, java.util.Arrays.copyOf(bytes, at)); // a cut file
            }
        }
        for (Map.Entry<Path, byte[]> file : files.entrySet()) {
            Files.write(file.getKey(), file.getValue());
        }
    }

    private static void deleteTree(Path directory) throws IOException {
        try (var files = Files.list(directory)) {
            for (Path file : files.toList()) {
                Files.delete(file);
            }
        }
        Files.delete(directory);
    }
}
