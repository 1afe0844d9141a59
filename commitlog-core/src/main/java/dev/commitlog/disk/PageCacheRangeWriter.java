package dev.commitlog.disk;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * {@code pwrite} of exactly the header and the range, into the page cache
 * ({@code commitlog_disk_access_mode: standard}): bytes of the memory past the range never reach
 * the file.
 */
final class PageCacheRangeWriter implements RangeWriter {
    private final FileChannel channel;
    /** A view of the writer memory for positional writes (each write moves its position and limit). */
    private final ByteBuffer view;

    PageCacheRangeWriter(FileChannel channel, ByteBuffer memory) {
        this.channel = channel;
        this.view = memory.duplicate();
    }

    @Override
    public void write(int headerLength, int from, int to, int stableEnd) throws IOException {
        write(0, Math.min(headerLength, from));
        write(from, to);
    }

    private void write(int from, int to) throws IOException {
        view.limit(to).position(from);
        while (view.hasRemaining()) {
            channel.write(view, view.position());
        }
    }
}
