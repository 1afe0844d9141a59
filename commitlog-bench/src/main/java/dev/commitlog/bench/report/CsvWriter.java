package dev.commitlog.bench.report;

import dev.commitlog.bench.sweep.CellResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The sweep as CSV, one row per cell. The header is an interface for scripts: a column keeps its
 * position, and new columns go at the end. A value that was not measured is an empty field. No field can
 * hold a comma (systems and mode labels are fixed identifiers), so nothing is quoted.
 */
public final class CsvWriter {

    public static final String HEADER =
            "system,mode,threads,ops_per_s,p50_us,p99_us,p999_us,flushes_per_s,records_per_flush,bytes_per_s,"
                    + "device_bytes_per_byte,device_bytes_per_framed_byte,cpu_us_per_record";

    private CsvWriter() {
    }

    public static String render(List<CellResult> cells) {
        StringBuilder out = new StringBuilder(HEADER).append('\n');
        for (CellResult c : cells) {
            out.append(c.system()).append(',')
                    .append(c.mode()).append(',')
                    .append(c.threads()).append(',')
                    .append(Numbers.fixed(c.opsPerSec(), 1)).append(',')
                    .append(Numbers.fixed(c.p50Us(), 3)).append(',')
                    .append(Numbers.fixed(c.p99Us(), 3)).append(',')
                    .append(Numbers.fixed(c.p999Us(), 3)).append(',')
                    .append(Numbers.fixed(c.flushesPerSec(), 1)).append(',')
                    .append(Numbers.fixed(c.recordsPerFlush(), 2)).append(',')
                    .append(Numbers.fixed(c.bytesPerSec(), 0)).append(',')
                    .append(Numbers.fixed(c.devicePerByte(), 3)).append(',')
                    .append(Numbers.fixed(c.devicePerFramedByte(), 3)).append(',')
                    .append(Numbers.fixed(c.cpuUsPerRecord(), 3)).append('\n');
        }
        return out.toString();
    }

    public static void write(Path file, List<CellResult> cells) throws IOException {
        Files.writeString(OutputFiles.prepare(file), render(cells));
    }
}
