package dev.commitlog.codecs;

import java.io.InputStream;
import java.io.OutputStream;
import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;

/** Stream views of a ByteBuffer, for libraries that only speak streams (Jackson); re-pointed per record, never allocated per record. */
final class ByteBufferStreams {
    private ByteBufferStreams() {
    }

    /** Writes into a buffer from its position; remembers an overflow, since a library may wrap the exception. */
    static final class Output extends OutputStream {
        private ByteBuffer target;
        boolean overflowed;

        Output pointAt(ByteBuffer buffer) {
            target = buffer;
            overflowed = false;
            return this;
        }

        @Override
        public void write(int b) {
            if (!target.hasRemaining()) {
                overflowed = true;
                throw new BufferOverflowException();
            }
            target.put((byte) b);
        }

        @Override
        public void write(byte[] bytes, int offset, int length) {
            if (target.remaining() < length) {
                overflowed = true;
                throw new BufferOverflowException();
            }
            target.put(bytes, offset, length);
        }

        @Override
        public void close() {
            // the buffer belongs to the log
        }
    }

    /** Reads a buffer from its position to its limit. */
    static final class Input extends InputStream {
        private ByteBuffer source;

        Input pointAt(ByteBuffer buffer) {
            source = buffer;
            return this;
        }

        @Override
        public int read() {
            return source.hasRemaining() ? source.get() & 0xFF : -1;
        }

        @Override
        public int read(byte[] bytes, int offset, int length) {
            if (length == 0) {
                return 0;
            }
            if (!source.hasRemaining()) {
                return -1;
            }
            int n = Math.min(length, source.remaining());
            source.get(bytes, offset, n);
            return n;
        }

        @Override
        public int available() {
            return source.remaining();
        }
    }
}
