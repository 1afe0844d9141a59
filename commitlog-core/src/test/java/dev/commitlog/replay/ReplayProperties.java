package dev.commitlog.replay;

import static dev.commitlog.format.RecordDescriptor.alignedFrameLength;

import dev.commitlog.BytesRecordHandler;
import dev.commitlog.CorruptLogException;
import dev.commitlog.CorruptionListener;
import dev.commitlog.CorruptionListener.Damage;
import dev.commitlog.config.ReplayPolicy;
import dev.commitlog.format.FrameChecksum;
import dev.commitlog.format.RecordDescriptor;
import dev.commitlog.format.SegmentDescriptor;
import dev.commitlog.io.SimulatedDisk;
import dev.commitlog.io.StorageLayer;
import dev.commitlog.section.DamagedSectionException;
import dev.commitlog.section.MissingKeyException;
import dev.commitlog.section.SectionBytes;
import dev.commitlog.section.SectionDamage;
import dev.commitlog.section.SectionDescriptor;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.bytes.BytesStore;

/**
 * What must hold for any damaged log, checked for one mutated image: first replay of the files as
 * a live log would (up to the durable position it had), then recovery as {@code open} runs it,
 * replay of what recovery left, and recovery once more over its own result.
 *
 * <ul>
 *   <li>Nothing is thrown but {@link CorruptLogException} (never under {@code skip_corrupt}, but
 *       for a sectioned tail that ends inside a section that verified, which every policy refuses),
 *       and it names a file, an offset and a log position; so does every report to the listener.
 *       In a sectioned log, also {@link MissingKeyException} for a section whose header verifies
 *       and names a key id the provider lacks (by design not damage).</li>
 *   <li>Every record handed to the handler verifies: its length word matches the payload and its
 *       stored CRC32C matches one recomputed over position, length word and payload; and it is a
 *       record that was written there (or one the mutator forged with a valid checksum).</li>
 *   <li>Records arrive in strictly increasing, non-overlapping position order.</li>
 *   <li>Nothing before the first damaged byte is lost: every record that ends before it is
 *       replayed, and no damage is reported before it.</li>
 *   <li>A log that recovery accepted replays without an exception, and recovering it again
 *       changes nothing.</li>
 *   <li>A segment recovery keeps for reuse holds nothing that would read as a frame (sectioned:
 *       no first section that verifies).</li>
 * </ul>
 *
 * A sectioned log ({@link PristineLog#isSectioned()}) is read through its storage layer, and
 * "the first damaged byte" is the first position of the section the first changed byte lies in.
 *
 * Hangs are bounded by the callers (a timeout per input). Violations throw {@link AssertionError}
 * naming the input's mutations.
 */
final class ReplayProperties {
    private static final Path DIRECTORY = Path.of("/fuzz-log"); // the simulated disk keys files by name only

    private final PristineLog pristine;
    private final SegmentMutator.Mutated mutated;
    private final ReplayPolicy policy;
    /** Records ending at or before this position are untouched by the mutations. */
    private final long intactEnd;
    private final FrameChecksum checksum = new FrameChecksum();

    private ReplayProperties(PristineLog pristine, SegmentMutator.Mutated mutated, ReplayPolicy policy) {
        this.pristine = pristine;
        this.mutated = mutated;
        this.policy = policy;
        this.intactEnd = intactEnd(pristine, mutated.files());
    }

    /** Checks every property for one input; returns how many records were replayed and verified. */
    static long check(PristineLog pristine, SegmentMutator.Mutated mutated, ReplayPolicy policy) {
        return new ReplayProperties(pristine, mutated, policy).check();
    }

    private long check() {
        SimulatedDisk disk = SimulatedDisk.holding(mutated.files());
        StorageLayer storage = pristine.storage(disk);
        long verified = liveReplay(disk, storage); // reads only, so recovery can run over the same disk after it
        return verified + recoverAndReplay(disk, storage);
    }

    /** Replay over the damaged files with no recovery, up to the durable position the log had. */
    private long liveReplay(SimulatedDisk disk, StorageLayer storage) {
        Deliveries deliveries = new Deliveries("live replay");
        try {
            new Replayer(storage, policy, listener("live replay", disk)).replayBytes(DIRECTORY, 0, pristine.endPosition, deliveries);
        } catch (CorruptLogException e) {
            checkThrown("live replay", e, disk);
        } catch (MissingKeyException e) {
            checkKeyMissing("live replay", e);
            return deliveries.count; // refused whole: a reader decodes a segment's sections before it hands out its records
        } catch (Throwable e) {
            throw unexpected("live replay", e);
        }
        deliveries.checkPrefixPresent();
        return deliveries.count;
    }

    private long recoverAndReplay(SimulatedDisk disk, StorageLayer storage) {
        LogRecovery.Recovered recovered;
        try {
            recovered = recover(disk, storage, "recovery");
        } catch (CorruptLogException e) {
            checkThrown("recovery", e, disk);
            return 0;
        } catch (MissingKeyException e) {
            checkKeyMissing("recovery", e);
            return 0;
        } catch (Throwable e) {
            throw unexpected("recovery", e);
        }
        closeSegments(recovered);
        checkPreparedIsEmpty(disk, recovered);
        if (recovered.endPosition() < intactEnd) {
            throw violation("recovery ended the log at " + recovered.endPosition() + ", before intact records that end at " + intactEnd);
        }
        Deliveries first = replayRecovered(disk, storage, recovered, "replay after recovery");
        first.checkPrefixPresent();

        LogRecovery.Recovered again;
        try {
            again = recover(disk, storage, "second recovery");
        } catch (Throwable e) {
            throw unexpected("second recovery (of a log recovery accepted)", e);
        }
        closeSegments(again);
        if (appendPosition(again) != appendPosition(recovered)) {
            throw violation("recovery is not idempotent: appends would resume at " + appendPosition(again) + " instead of "
                    + appendPosition(recovered));
        }
        if (again.records() != recovered.records()) {
            throw violation("recovery is not idempotent: it found " + recovered.records() + " records, then " + again.records());
        }
        return first.count;
    }

    private static void closeSegments(LogRecovery.Recovered recovered) {
        recovered.tail().file().close();
        if (recovered.next() != null) {
            recovered.next().file().close();
        }
    }

    /**
     * A segment recovery keeps for the allocator holds nothing past its header on the device that
     * reads as a frame (in a sectioned file: no first section that verifies, {@link SectionScan}): whatever
     * verified would be walked as records once the tail's end marker is durable. Either the bytes
     * are zero, or a new salt (a new life of the file) voids them.
     */
    private void checkPreparedIsEmpty(SimulatedDisk disk, LogRecovery.Recovered recovered) {
        if (recovered.next() == null) {
            return;
        }
        String name = recovered.next().file().path().getFileName().toString();
        byte[] durable = disk.durableBytes(name);
        if (durable == null) {
            throw violation("recovery kept " + name + " for reuse, but the device does not hold it");
        }
        if (durable.length >= SegmentDescriptor.SEGMENT_HEADER_LENGTH
                && little(durable).getInt(SegmentDescriptor.VERSION_OFFSET) == SegmentDescriptor.FORMAT_VERSION_SECTIONS) {
            if (SectionScan.firstSectionVerifies(durable, PristineLog.KEYS)) {
                throw violation("recovery kept " + name + " for reuse with a first section that verifies on the device");
            }
            return;
        }
        FrameScanner scanner = new FrameScanner();
        scanner.reset(ByteBuffer.wrap(durable), recovered.next().basePosition());
        int first = SegmentDescriptor.SEGMENT_HEADER_LENGTH;
        if (scanner.scan(first) != FrameScanner.Kind.UNWRITTEN) {
            throw violation("recovery kept " + name + " for reuse with a frame at its first offset on the device");
        }
        int found = scanner.resync(first);
        if (found >= 0) {
            throw violation("recovery kept " + name + " for reuse with a frame that verifies at offset " + found + " on the device");
        }
    }

    private static long appendPosition(LogRecovery.Recovered recovered) {
        return recovered.tail().basePosition() + recovered.firstFreeOffset();
    }

    private LogRecovery.Recovered recover(SimulatedDisk disk, StorageLayer storage, String stage) throws IOException {
        return LogRecovery.recover(DIRECTORY, storage, PristineLog.SEGMENT_SIZE, PosixFilePermissions.fromString("rw-------"), policy,
                listener(stage, disk));
    }

    private Deliveries replayRecovered(SimulatedDisk disk, StorageLayer storage, LogRecovery.Recovered recovered, String stage) {
        Deliveries deliveries = new Deliveries(stage);
        try {
            new Replayer(storage, policy, listener(stage, disk)).replayBytes(DIRECTORY, 0, recovered.endPosition(), deliveries);
        } catch (Throwable e) {
            throw unexpected(stage + " (of a log recovery accepted)", e);
        }
        return deliveries;
    }

    /** Collects and verifies each record handed to the handler. */
    private final class Deliveries implements BytesRecordHandler {
        private final String stage;
        private final List<Long> positions = new ArrayList<>();
        private long nextAllowed;
        private long count;

        Deliveries(String stage) {
            this.stage = stage;
        }

        @Override
        public void onRecord(long position, Bytes<?> payload) {
            BytesStore<?, ?> store = payload.bytesStore();
            long payloadStart = payload.readPosition();
            int length = (int) payload.readRemaining();
            int lengthWord = store.readInt(payloadStart - RecordDescriptor.FRAME_HEADER_LENGTH + RecordDescriptor.LENGTH_OFFSET);
            int storedCrc = store.readInt(payloadStart - RecordDescriptor.FRAME_HEADER_LENGTH + RecordDescriptor.CRC_OFFSET);
            byte[] bytes = payload.toByteArray();
            if (lengthWord != RecordDescriptor.frameLength(length)) {
                throw violation(stage + ": record at " + position + " handed with " + length + " bytes under length word " + lengthWord);
            }
            // The segment's own salt and version, from its header (the store maps the whole file).
            checksum.forSegment(store.readInt(SegmentDescriptor.VERSION_OFFSET), store.readInt(SegmentDescriptor.SALT_OFFSET));
            int computed = checksum.begin(position, lengthWord).update(bytes, 0, length).value();
            if (computed != storedCrc) {
                throw violation(String.format("%s: record at %d handed to the handler fails its checksum (stored 0x%08x, computed 0x%08x)",
                        stage, position, storedCrc, computed));
            }
            if (!Arrays.equals(bytes, pristine.records.get(position)) && mutated.forged().getOrDefault(position, List.of()).stream().noneMatch(forged -> Arrays.equals(bytes, forged))) {
                throw violation(stage + ": record at " + position + " (" + length + " bytes) was never written there");
            }
            if (position < nextAllowed) {
                throw violation(stage + ": record at " + position + " comes after one that ends at " + nextAllowed);
            }
            nextAllowed = position + alignedFrameLength(length);
            positions.add(position);
            count++;
        }

        /** Every record wholly before the first damaged byte was replayed. */
        void checkPrefixPresent() {
            int index = 0;
            for (long position : pristine.records.headMap(intactEnd, false).keySet()) {
                if (position + alignedFrameLength(pristine.records.get(position).length) > intactEnd) {
                    break;
                }
                if (index >= positions.size() || positions.get(index) != position) {
                    throw violation(stage + ": intact record at " + position + " (before the first damaged byte, at " + intactEnd
                            + ") was not replayed");
                }
                index++;
            }
        }
    }

    /**
     * Checks each report: located, with a reason and an action, and of a kind the policy reports
     * rather than throws ({@code strict} reports nothing; {@code tolerate_tail} only a torn tail
     * and a damaged header after the end of the log, which the tools print as notices).
     */
    private CorruptionListener listener(String stage, SimulatedDisk disk) {
        return new CorruptionListener() {
            @Override
            public void onCorruption(Path file, long offset, long position, Damage damage, String reason, String action) {
                checkLocated(stage + " report", file, offset, position, reason, disk);
                if (action == null || action.isBlank()) {
                    throw violation(stage + ": a report at " + position + " says nothing about what was done");
                }
                boolean reported = switch (policy) {
                    case STRICT -> false;
                    case TOLERATE_TAIL -> damage == Damage.TORN_TAIL || damage == Damage.DAMAGED_HEADER;
                    case SKIP_CORRUPT -> damage != null;
                };
                if (!reported) {
                    throw violation(stage + ": " + damage + " reported, not thrown, under " + policy + ": " + reason);
                }
            }

            @Override
            public void onCorruption(Path file, long offset, long position, String reason, String action) {
                throw violation(stage + ": a report without its kind of damage at " + position + ": " + reason);
            }
        };
    }

    /**
     * A section whose header verifies and names a key id the key provider does not have refuses the
     * open: not damage by design (docs/format.md), and a mutation that rewrote a key id with a valid
     * header CRC makes exactly that. Anything else refused this way is a violation.
     */
    private void checkKeyMissing(String stage, MissingKeyException e) {
        if (!(e.getCause() instanceof DamagedSectionException cause) || cause.damage() != SectionDamage.UNKNOWN_KEY) {
            throw violation(stage + " threw " + e + " without the section's damage as its cause");
        }
        int at = (int) cause.fileOffset();
        for (byte[] bytes : mutated.files().values()) {
            if (at >= 0 && at + SectionDescriptor.HEADER_LENGTH <= bytes.length && little(bytes).getInt(at) == SectionDescriptor.MAGIC
                    && SectionBytes.headerCrc(bytes, at) == little(bytes).getInt(at + SectionDescriptor.HEADER_CRC_OFFSET)
                    && PristineLog.KEYS.key(little(bytes).getInt(at + SectionDescriptor.KEY_ID_OFFSET)) == null) {
                return;
            }
        }
        throw violation(stage + " refused for a missing key, but no file holds a verifying section at offset " + at
                + " under a key id the provider lacks: " + e.getMessage());
    }

    private static ByteBuffer little(byte[] bytes) {
        return ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    }

    private void checkThrown(String stage, CorruptLogException e, SimulatedDisk disk) {
        if (policy == ReplayPolicy.SKIP_CORRUPT && !endsInsideAVerifiedSection(e)) {
            throw violation(stage + " threw under skip_corrupt, which must report and go on: " + e.getMessage());
        }
        checkLocated(stage + " exception", e.file(), e.offset(), e.position(), e.reason(), disk);
        if (e.damage() == null) {
            throw violation(stage + ": the exception does not say what kind of damage it is: " + e.getMessage());
        }
        if (!e.getMessage().contains("log position " + e.position()) || !e.getMessage().contains(e.file().toString())) {
            throw violation(stage + ": the exception's message does not name the file and position: " + e.getMessage());
        }
    }

    /**
     * The one refusal {@code skip_corrupt} makes (docs/format.md, "Reading rules for sections"): a
     * sectioned tail whose frames end inside a section that verified, which recovery would have to
     * rewrite to cut there; the mutator makes one by re-homing a section (logical start and CRCs)
     * whose frames then fail their own CRCs.
     */
    private boolean endsInsideAVerifiedSection(CorruptLogException e) {
        return pristine.isSectioned() && e.damage() == Damage.BAD_FRAME && e.reason().contains("ends inside a section that verified");
    }

    /** A report names an existing segment file, an offset inside it and a position at or after the first damage. */
    private void checkLocated(String what, Path file, long offset, long position, String reason, SimulatedDisk disk) {
        if (file == null || SegmentDescriptor.parseId(file.getFileName().toString()) < 0) {
            throw violation(what + " names no segment file: " + file);
        }
        long size;
        try {
            size = disk.size(file);
        } catch (IOException e) {
            throw violation(what + " names a file that does not exist: " + file);
        }
        if (offset < 0 || offset > size) {
            throw violation(what + " offset " + offset + " is outside " + file.getFileName() + " (" + size + " bytes)");
        }
        if (position < intactEnd) {
            throw violation(what + " at position " + position + ", before the first damaged byte (records up to " + intactEnd
                    + " are intact): " + reason);
        }
        if (reason == null || reason.isBlank()) {
            throw violation(what + " at " + position + " gives no reason");
        }
    }

    /**
     * The end of the last pristine record that lies wholly before the first byte the mutations
     * changed, in log order (a changed or missing header, or a changed length, counts as a change
     * at the segment's start). Reports and losses before it are bugs.
     */
    private static long intactEnd(PristineLog pristine, TreeMap<String, byte[]> files) {
        long firstChange = Long.MAX_VALUE;
        for (Map.Entry<String, byte[]> file : pristine.files.entrySet()) {
            byte[] now = files.get(file.getKey());
            byte[] was = file.getValue();
            int at = now == null || now.length != was.length ? 0 : Arrays.mismatch(was, now);
            if (at >= 0) {
                firstChange = pristine.firstPositionAt(file.getKey(), at);
                break;
            }
        }
        if (firstChange == Long.MAX_VALUE) {
            // Only files after the pristine ones were added: the whole pristine log is intact.
            firstChange = pristine.endPosition;
        }
        long end = 0;
        for (Map.Entry<Long, byte[]> record : pristine.records.headMap(firstChange, false).entrySet()) {
            long recordEnd = record.getKey() + alignedFrameLength(record.getValue().length);
            if (recordEnd <= firstChange) {
                end = recordEnd;
            }
        }
        return end;
    }

    private AssertionError violation(String what) {
        return new AssertionError(what + "\n  policy " + policy + ", mutations: " + mutated.applied());
    }

    private AssertionError unexpected(String stage, Throwable e) {
        if (e instanceof AssertionError assertion && assertion.getMessage() != null && assertion.getMessage().contains("mutations: ")) {
            return assertion;
        }
        AssertionError error = violation(stage + " threw " + e);
        error.initCause(e);
        return error;
    }
}
