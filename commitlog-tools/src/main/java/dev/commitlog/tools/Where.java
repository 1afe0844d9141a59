package dev.commitlog.tools;

import java.nio.file.Path;

/** How every command names a place in the log: the position first, then file and offset for a hex editor. */
final class Where {
    private Where() {
    }

    static String at(long position, Path file, long offset) {
        return "position " + position + " (" + file.getFileName() + ", offset " + offset + ")";
    }
}
