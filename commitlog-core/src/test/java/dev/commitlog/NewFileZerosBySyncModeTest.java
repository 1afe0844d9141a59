package dev.commitlog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.DiskAccessMode;
import dev.commitlog.config.SyncMode;
import dev.commitlog.disk.MappedStorageLayer;
import dev.commitlog.disk.SegmentFileSpace;
import dev.commitlog.io.StorageLayer;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The production layer's new segment files get their zeros as the sync mode suits: paced (a synced
 * MiB at a time) where appends wait for flushes, which a burst of zeros' writeback would delay; in
 * one go for Periodic, whose appends would otherwise wait at each rollover for zeros written at the
 * device's pace (docs/benchmarks.md, "Paced zeros and Periodic"). A space the embedder chose is kept.
 */
class NewFileZerosBySyncModeTest {
    private static final Path DIR = Path.of("/nonexistent/commitlog");

    @Test
    void periodicLogsWriteNewFilesZerosInOneGoAndTheDurableModesPaceThem() {
        assertEquals(SegmentFileSpace.ZERO_FILL_UNPACED, spaceFor(SyncMode.PERIODIC, DiskAccessMode.STANDARD));
        assertEquals(SegmentFileSpace.ZERO_FILL_UNPACED, spaceFor(SyncMode.PERIODIC, DiskAccessMode.DIRECT));
        for (SyncMode durable : new SyncMode[] {SyncMode.BATCH, SyncMode.GROUP, SyncMode.ADAPTIVE}) {
            assertEquals(SegmentFileSpace.ZERO_FILL, spaceFor(durable, DiskAccessMode.STANDARD), durable.toString());
            assertEquals(SegmentFileSpace.ZERO_FILL, spaceFor(durable, DiskAccessMode.DIRECT), durable.toString());
        }
    }

    @Test
    void aSpaceTheEmbedderChoseIsKeptInEveryMode() {
        for (SegmentFileSpace chosen : SegmentFileSpace.values()) {
            MappedStorageLayer given = new MappedStorageLayer(chosen);
            for (SyncMode mode : SyncMode.values()) {
                StorageLayer used = LogOpening.storageFor(config(mode, DiskAccessMode.STANDARD), given);
                assertSame(given, used, chosen + " in " + mode);
            }
        }
    }

    private static SegmentFileSpace spaceFor(SyncMode mode, DiskAccessMode access) {
        StorageLayer used = LogOpening.storageFor(config(mode, access), new MappedStorageLayer());
        assertEquals(access, ((MappedStorageLayer) used).accessMode(), "the access mode is applied too");
        return ((MappedStorageLayer) used).newFileSpace();
    }

    private static CommitLogConfig config(SyncMode mode, DiskAccessMode access) {
        return CommitLogConfig.builder(DIR).syncMode(mode).diskAccessMode(access).build();
    }
}
