package dev.commitlog.io;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The fault layer itself: what a flush makes durable, and what a power loss keeps. */
class SimulatedDiskTest {
    private static final Path DIR = Path.of("/simulated");
    private static final int SIZE = 4 * SimulatedDisk.PAGE;

    private static SegmentFile create(SimulatedDisk disk, String name) throws IOException {
        ByteBuffer header = ByteBuffer.allocate(8).putLong(0, 0x1122334455667788L);
        return disk.create(DIR.resolve(name), SIZE, header, Set.of());
    }

    private static byte[] read(SimulatedDisk disk, String name) throws IOException {
        try (SegmentFile file = disk.open(DIR.resolve(name), false)) {
            byte[] bytes = new byte[file.size()];
            file.buffer().get(0, bytes);
            return bytes;
        }
    }

    @Test
    void createIsDurableWholeAndUnflushedWritesAreLostUnderNone() throws IOException {
        SimulatedDisk disk = new SimulatedDisk();
        SegmentFile file = create(disk, "a");
        file.buffer().put(100, (byte) 7);
        byte[] after = read(disk.crashImage(new Random(1), SimulatedDisk.Loss.NONE), "a");
        assertEquals(0x11, after[0], "the header written by create is durable");
        assertEquals(0, after[100], "an unflushed write is lost");
        assertEquals(7, read(disk.crashImage(new Random(1), SimulatedDisk.Loss.ALL), "a")[100]);
    }

    @Test
    void flushRoundsOutToWholePagesAsMsyncDoes() throws IOException {
        SimulatedDisk disk = new SimulatedDisk();
        SegmentFile file = create(disk, "a");
        file.buffer().put(SimulatedDisk.PAGE + 10, (byte) 1);
        file.buffer().put(SimulatedDisk.PAGE + 4000, (byte) 2);
        file.buffer().put(2 * SimulatedDisk.PAGE + 1, (byte) 3);
        file.flush(SimulatedDisk.PAGE + 20, SimulatedDisk.PAGE + 30);
        byte[] after = read(disk.crashImage(new Random(1), SimulatedDisk.Loss.NONE), "a");
        assertEquals(1, after[SimulatedDisk.PAGE + 10]);
        assertEquals(2, after[SimulatedDisk.PAGE + 4000]);
        assertEquals(0, after[2 * SimulatedDisk.PAGE + 1], "the next page was not flushed");
        assertEquals(1, disk.flushCalls());
    }

    @Test
    void randomLossKeepsWholeSectorsEitherOldOrNew() throws IOException {
        SimulatedDisk disk = new SimulatedDisk();
        SegmentFile file = create(disk, "a");
        for (int i = 64; i < SIZE; i++) {
            file.buffer().put(i, (byte) (1 + i / SimulatedDisk.SECTOR));
        }
        Random random = new Random(42);
        for (SimulatedDisk.Loss loss : SimulatedDisk.Loss.values()) {
            for (int round = 0; round < 20; round++) {
                byte[] after = read(disk.crashImage(random, loss), "a");
                boolean sawGap = false;
                for (int sector = 1; sector < SIZE / SimulatedDisk.SECTOR; sector++) {
                    int from = sector * SimulatedDisk.SECTOR;
                    byte first = after[from];
                    assertTrue(first == 0 || first == (byte) (1 + sector), loss + ": sector holds old or new bytes");
                    for (int i = from; i < from + SimulatedDisk.SECTOR; i++) {
                        assertEquals(first, after[i], loss + ": a sector is never torn");
                    }
                    if (first == 0) {
                        sawGap = true;
                    } else if (loss == SimulatedDisk.Loss.PREFIX) {
                        assertFalse(sawGap, "PREFIX keeps the dirty sectors in order");
                    }
                }
            }
        }
    }

    @Test
    void deletionIsDurableOnlyAfterDirectorySync() throws IOException {
        SimulatedDisk disk = new SimulatedDisk();
        create(disk, "a").close();
        create(disk, "b").close();
        disk.delete(DIR.resolve("a"));
        assertEquals(List.of("b"), disk.fileNames());
        assertEquals(List.of("a", "b"), disk.crashImage(new Random(1), SimulatedDisk.Loss.NONE).fileNames(),
                "an unsynced deletion may be undone by a crash");
        disk.syncDirectory(DIR);
        assertEquals(List.of("b"), disk.crashImage(new Random(1), SimulatedDisk.Loss.NONE).fileNames());
    }

    @Test
    void faultsOnCommand() throws Exception {
        SimulatedDisk disk = new SimulatedDisk();
        SegmentFile file = create(disk, "a");
        file.buffer().put(100, (byte) 9);
        disk.failNextFlush();
        assertThrows(IOException.class, () -> file.flush(0, SIZE));
        assertEquals(0, read(disk.crashImage(new Random(1), SimulatedDisk.Loss.NONE), "a")[100], "a failed flush made nothing durable");
        file.flush(0, SIZE);
        assertEquals(2, disk.flushCalls());
        assertEquals(1, disk.failedFlushes());

        disk.failCreates("No space left on device");
        IOException full = assertThrows(IOException.class, () -> create(disk, "b"));
        assertEquals("No space left on device", full.getMessage());
        disk.clearCreateFault();
        create(disk, "b").close();

        disk.blockFlushes();
        Thread flusher = new Thread(() -> {
            try {
                file.flush(0, 10);
            } catch (IOException e) {
                throw new RuntimeException(e);
            }
        });
        flusher.start();
        assertTrue(disk.awaitFlushBlocked(5_000));
        flusher.join(50);
        assertTrue(flusher.isAlive(), "the flush waits on the gate");
        disk.releaseFlushes();
        flusher.join(5_000);
        assertFalse(flusher.isAlive());
    }
}
