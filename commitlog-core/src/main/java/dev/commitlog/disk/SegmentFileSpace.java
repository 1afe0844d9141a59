package dev.commitlog.disk;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * How a new segment file gets its length (and, for some, its blocks) before it is renamed into
 * place. Every choice leaves a file that reads as zeros past its header, which is what the frame
 * format's "a length word of 0: nothing written here" needs from the device after a crash.
 * docs/design.md says which is the default and why; docs/benchmarks.md has the figures.
 */
public enum SegmentFileSpace {
    /**
     * Zeros written over the whole file, a MiB at a time, each MiB synced before the next is
     * written: its blocks are allocated and written before any record is. The syncs pace the
     * zeros: written in one go, a segment's 32 MiB sat in the page cache until writeback sent them
     * to the device in one burst, and commit flushes queued behind it (docs/benchmarks.md, "Fresh
     * segments under load").
     */
    ZERO_FILL {
        @Override
        public void prepare(FileChannel channel, Path path, int size) throws IOException {
            ByteBuffer zeros = ByteBuffer.allocateDirect(Math.min(ZERO_CHUNK, size));
            for (long written = 0; written < size; ) {
                zeros.clear().limit((int) Math.min(zeros.capacity(), size - written));
                written += channel.write(zeros, written);
                channel.force(false);
            }
        }
    },
    /**
     * Zeros written over the whole file in one go and synced once by the caller: for Periodic logs,
     * whose appends wait for no flush, but wait for a paced segment's zeros once they fill the
     * current segment ({@link MappedStorageLayer#withSyncMode}).
     */
    ZERO_FILL_UNPACED {
        @Override
        public void prepare(FileChannel channel, Path path, int size) throws IOException {
            ByteBuffer zeros = ByteBuffer.allocateDirect(Math.min(ZERO_CHUNK, size));
            for (long written = 0; written < size; ) {
                zeros.clear().limit((int) Math.min(zeros.capacity(), size - written));
                written += channel.write(zeros, written);
            }
        }
    },
    /**
     * Only the length set, by writing the last byte (the JDK's {@code truncate} only shrinks): a
     * sparse file whose holes read as zeros; each flush allocates the blocks it writes.
     */
    SPARSE {
        @Override
        public void prepare(FileChannel channel, Path path, int size) throws IOException {
            channel.write(ByteBuffer.allocate(1), size - 1L); // extends the file; the JDK's truncate only shrinks
        }
    },
    /**
     * Experimental, for measurement only: blocks reserved by the {@code fallocate} command (mode 0,
     * which sets the length; the extents are "unwritten" and read as zeros). Java 17 cannot call
     * {@code fallocate(2)} without native code, which this project does not carry; this column
     * tells whether it would be worth it. Starts a process per segment.
     */
    FALLOCATE_COMMAND {
        @Override
        public void prepare(FileChannel channel, Path path, int size) throws IOException {
            Process process = new ProcessBuilder("fallocate", "-l", Integer.toString(size), path.toString())
                    .redirectErrorStream(true).start();
            try {
                String output = new String(process.getInputStream().readAllBytes());
                if (!process.waitFor(10, TimeUnit.SECONDS) || process.exitValue() != 0) {
                    process.destroyForcibly();
                    throw new IOException("fallocate -l " + size + " " + path + " failed: " + output.strip());
                }
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while running fallocate on " + path, e);
            }
        }
    };

    private static final int ZERO_CHUNK = 1 << 20;

    /**
     * Gives the new, empty file at {@code path} (open for writing as {@code channel}) its length of
     * {@code size} bytes; syncing is the caller's.
     */
    public abstract void prepare(FileChannel channel, Path path, int size) throws IOException;
}
