package dev.commitlog.tools;

import dev.commitlog.repair.LogTruncator;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code truncate-after DIR POSITION}: the explicit way forward after corruption. POSITION is the
 * first position removed; see {@link LogTruncator} for which positions are accepted and in what
 * order files change. The only command that writes.
 */
@Command(name = "truncate-after", mixinStandardHelpOptions = true, versionProvider = ToolVersion.class,
        description = {"Cut the log so that POSITION is the first position removed: the record at POSITION and every later one "
                + "leave the log, every record before it stays. POSITION is where a frame starts (a position dump prints, or the "
                + "position verify reports) or a segment file's base position.",
                "Files it rewrites are first copied, and later segment files moved, into a backup directory; it prints what it did. "
                        + "Refuses (exit 3, nothing changed) if the log is open, if POSITION is not where a frame starts, or if the log "
                        + "is damaged before POSITION. Afterwards the log opens under every replay policy, strict included.",
                "In a compressed or encrypted log the section POSITION falls in is stored again, holding only what comes before "
                        + "POSITION, compressed and encrypted as it was (under the keystore's highest key id).",
                KeyOptions.HELP})
final class TruncateAfterCommand implements Callable<Integer> {
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

    @Mixin
    LogDirectory logDirectory;

    @Mixin
    KeyOptions keyOptions;

    @Parameters(index = "1", paramLabel = "POSITION", description = "the first log position to remove")
    long position;

    @Option(names = "--backup-dir", paramLabel = "PATH",
            description = "where to keep what is cut (created; must be empty). Default: DIR.truncated-<date>-<time> beside DIR")
    Path backupDirectory;

    @Override
    public Integer call() throws IOException {
        Path directory = logDirectory.checked();
        if (position < 0) {
            throw logDirectory.refuse("POSITION must be a log position (>= 0), not " + position);
        }
        Path backup = backupDirectory != null ? backupDirectory : defaultBackup(directory);
        LogTruncator.Result result = keyOptions.keys().truncateAfter(directory, position, backup);
        PrintWriter out = logDirectory.out();
        if (!result.changed()) {
            out.println("nothing to cut: nothing is written at or after position " + result.position() + "; the log ends at position "
                    + LogSpan.read(directory).describeEnd() + ", " + result.recordsKept() + " records; nothing changed");
            return ExitCode.OK;
        }
        out.println("truncated " + directory + ": position " + result.position() + " and everything after it removed; "
                + result.recordsKept() + " records before it kept");
        for (Path file : result.copied()) {
            String change = file.equals(result.cutFile()) ? "zeroed from offset " + result.cutOffset() : "durable mark lowered";
            out.println("  " + file.getFileName() + ": " + change + "; its previous contents: " + result.backupDirectory().resolve(file.getFileName()));
        }
        for (Path file : result.moved()) {
            out.println("  " + file.getFileName() + ": moved to " + result.backupDirectory().resolve(file.getFileName()));
        }
        out.println("backup in " + result.backupDirectory() + " (to undo, with the log closed: copy its files back into " + directory + ")");
        out.println("the log opens under every replay policy now; appends resume at position " + result.position()
                + " (or at the next segment's first position, when the cut segment is compressed, encrypted or recycled)");
        return ExitCode.OK;
    }

    /** {@code DIR.truncated-<date>-<time>} beside DIR, with a counter if that exists already. */
    private static Path defaultBackup(Path directory) {
        Path absolute = directory.toAbsolutePath().normalize();
        String base = absolute.getFileName() + ".truncated-" + LocalDateTime.now().format(STAMP);
        Path candidate = absolute.resolveSibling(base);
        for (int n = 2; Files.exists(candidate); n++) {
            candidate = absolute.resolveSibling(base + "-" + n);
        }
        return candidate;
    }
}
