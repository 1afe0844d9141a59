package dev.commitlog.segment;

import dev.commitlog.io.SegmentFile;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** A segment file in memory that only records the flushes asked of it: {header length, from, to}. */
final class RecordingSegmentFile implements SegmentFile {
    final ByteBuffer buffer;
    final List<int[]> flushes = new ArrayList<>();

    RecordingSegmentFile(int size) {
        this.buffer = ByteBuffer.allocateDirect(size);
    }

    @Override
    public Path path() {
        return Path.of("recording.log");
    }

    @Override
    public ByteBuffer buffer() {
        return buffer;
    }

    @Override
    public void flush(int from, int to) {
        flushes.add(new int[] {0, from, to});
    }

    @Override
    public void flushHeaderAndRange(int headerLength, int from, int to) {
        flushes.add(new int[] {headerLength, from, to});
    }

    @Override
    public void close() {
    }
}
