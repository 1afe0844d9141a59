package dev.commitlog.bench.sweep;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;

/**
 * The report's first lines: when and where the sweep ran, how many cells, and how long each was
 * measured.
 */
public final class RunHeader {

    private RunHeader() {
    }

    /** {@code columns}: closed-loop columns; {@code total}: cells of both sections. */
    static List<String> describe(SweepOptions options, Path workDir, int columns, int total) throws IOException {
        int closedLoop = options.threads().size() * columns;
        return List.of(
                machine(),
                String.format(Locale.ROOT,
                        "%d cells (%d closed-loop: %d thread counts x %d columns; %d asynchronous), each measured once: "
                                + "%.1f s warmup + %.1f s measured, %d-byte records, fresh directory per cell under %s (%s)",
                        total, closedLoop, closedLoop == 0 ? 0 : options.threads().size(), columns, total - closedLoop,
                        options.timing().warmup().toMillis() / 1000.0,
                        options.timing().measure().toMillis() / 1000.0, options.recordBytes(),
                        workDir.toAbsolutePath(), Files.getFileStore(workDir).type()));
    }

    /** When and on what the run ran: time, host, cores, OS and JDK. */
    public static String machine() {
        String when = ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'"));
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            host = "unknown host";
        }
        return String.format(Locale.ROOT, "Run %s on %s: %d cores, %s %s, JDK %s (%s)", when, host,
                Runtime.getRuntime().availableProcessors(), System.getProperty("os.name"),
                System.getProperty("os.arch"), System.getProperty("java.version"),
                System.getProperty("java.vm.name"));
    }
}
