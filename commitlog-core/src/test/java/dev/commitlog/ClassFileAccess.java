package dev.commitlog;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;

/** Reads a class file's access flags without loading the class: past the magic, the versions and the constant pool. */
final class ClassFileAccess {
    private ClassFileAccess() {
    }

    static int read(InputStream classFile) throws IOException {
        DataInputStream in = new DataInputStream(classFile);
        if (in.readInt() != 0xCAFEBABE) {
            throw new IOException("not a class file");
        }
        in.readUnsignedShort(); // minor
        in.readUnsignedShort(); // major
        int count = in.readUnsignedShort();
        for (int i = 1; i < count; i++) {
            int tag = in.readUnsignedByte();
            switch (tag) {
                case 1 -> in.skipBytes(in.readUnsignedShort()); // Utf8
                case 3, 4, 9, 10, 11, 12, 17, 18 -> in.skipBytes(4);
                case 5, 6 -> {
                    in.skipBytes(8);
                    i++; // long and double take two slots
                }
                case 7, 8, 16, 19, 20 -> in.skipBytes(2);
                case 15 -> in.skipBytes(3);
                default -> throw new IOException("unknown constant pool tag " + tag);
            }
        }
        return in.readUnsignedShort();
    }
}
