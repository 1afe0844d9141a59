package dev.commitlog.tools;

import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.util.HexFormat;

/** Prints bytes as {@code hexdump -C} does: offset, 16 bytes in hex, the printable ones as text. */
final class HexDump {
    private static final int PER_LINE = 16;
    private static final HexFormat HEX = HexFormat.of();

    private HexDump() {
    }

    /** Prints {@code bytes} from its position to its limit (leaves the position where it was). */
    static void print(PrintWriter out, String indent, ByteBuffer bytes) {
        int start = bytes.position();
        int length = bytes.remaining();
        StringBuilder line = new StringBuilder();
        for (int from = 0; from < length; from += PER_LINE) {
            line.setLength(0);
            line.append(indent).append(String.format("%08x ", from));
            StringBuilder text = new StringBuilder();
            for (int i = 0; i < PER_LINE; i++) {
                if (i == PER_LINE / 2) {
                    line.append(' ');
                }
                if (from + i < length) {
                    byte b = bytes.get(start + from + i);
                    line.append(' ').append(HEX.toHexDigits(b));
                    text.append(b >= 0x20 && b < 0x7f ? (char) b : '.');
                } else {
                    line.append("   ");
                }
            }
            out.println(line.append("  |").append(text).append('|'));
        }
    }
}
