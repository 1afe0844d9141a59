package dev.commitlog.bench.codec;

import dev.commitlog.CommitLog;
import dev.commitlog.bench.sut.Appender;
import dev.commitlog.bench.sut.CommitLogContender;
import dev.commitlog.bench.sut.Contender;
import dev.commitlog.bench.sut.SystemUnderTest;
import dev.commitlog.codecs.example.WalRecord;
import dev.commitlog.config.SyncMode;
import java.io.IOException;
import java.nio.file.Path;

/**
 * The commit log in Adaptive mode, appending {@link WalRecord} samples through one {@link Encoding}:
 * a column {@link dev.commitlog.bench.pair.SlicedDuel} can pair. The {@code byte[]} the duel hands
 * each append is ignored: writer {@code i} appends samples {@code 131 i}, {@code 131 i + 1}, ...
 * (mod 1,024) through the encoding, as the single pass's writers do.
 */
final class EncodingContender implements Contender {
    private static final CommitLogContender ADAPTIVE = new CommitLogContender(SyncMode.ADAPTIVE, null);

    private final Encoding encoding;
    private final WalRecord[] records;
    private final byte[][] raw;

    EncodingContender(Encoding encoding, WalRecord[] records, byte[][] raw) {
        this.encoding = encoding;
        this.records = records;
        this.raw = raw;
    }

    @Override
    public String system() {
        return CommitLogContender.SYSTEM;
    }

    @Override
    public String mode() {
        return encoding.name();
    }

    @Override
    public boolean durable() {
        return true;
    }

    @Override
    public String settings() {
        return "commitlog: Adaptive, library defaults otherwise; each column appends WalRecord samples through its encoding";
    }

    @Override
    public SystemUnderTest open(Path directory, int recordBytes) throws IOException {
        CommitLog log = ADAPTIVE.openLog(directory);
        return CommitLogContender.system(log, threadIndex -> new SampleAppender(log, threadIndex * 131L));
    }

    /** One writer's walk through the samples; confined to its thread, as every Appender is. */
    private final class SampleAppender implements Appender {
        private final CommitLog log;
        private long next;

        SampleAppender(CommitLog log, long first) {
            this.log = log;
            this.next = first;
        }

        @Override
        public void append(byte[] ignored) {
            encoding.append(log, records, raw, (int) (next++ & 1023));
        }
    }
}
