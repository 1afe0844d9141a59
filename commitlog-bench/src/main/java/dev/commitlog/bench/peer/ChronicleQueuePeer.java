package dev.commitlog.bench.peer;

import dev.commitlog.bench.sut.Appender;
import dev.commitlog.bench.sut.Contender;
import dev.commitlog.bench.sut.FlushCounters;
import dev.commitlog.bench.sut.SystemUnderTest;
import java.nio.file.Path;
import net.openhft.chronicle.bytes.BytesStore;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;

/**
 * Chronicle Queue appending to memory-mapped files with no flush: the reference for Periodic mode
 * (both return once the record is in the page cache). One appender per writer thread, as the
 * queue's threading rules require; each append writes the record bytes as one excerpt.
 */
public final class ChronicleQueuePeer implements Contender {

    public static final String NAME = "chronicle-queue";

    @Override
    public String system() {
        return NAME;
    }

    @Override
    public String settings() {
        return "chronicle-queue: defaults, one appender per thread, writeBytes, no flush";
    }

    @Override
    public boolean durable() {
        return false;
    }

    @Override
    public SystemUnderTest open(Path directory, int recordBytes) {
        return new Instance(ChronicleQueue.singleBuilder(directory).build());
    }

    private static final class Instance implements SystemUnderTest {
        private final ChronicleQueue queue;

        Instance(ChronicleQueue queue) {
            this.queue = queue;
        }

        @Override
        public Appender newAppender(int threadIndex) {
            ExcerptAppender appender = queue.createAppender();
            return new Appender() {
                private byte[] wrapped;
                private BytesStore<?, ?> store;   // a view of the caller's array, made once

                @Override
                public void append(byte[] record) {
                    if (record != wrapped) {
                        wrapped = record;
                        store = BytesStore.wrap(record);
                    }
                    appender.writeBytes(store);
                }

                @Override
                public void close() {
                    appender.close();
                }
            };
        }

        @Override
        public FlushCounters flushCounters() {
            return FlushCounters.UNKNOWN;   // it never flushes on the append path
        }

        @Override
        public void close() {
            queue.close();
        }
    }
}
