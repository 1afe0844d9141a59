package dev.commitlog.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.commitlog.bench.sweep.CellResult;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The CSV scripts read: its header, one row per cell, and what was not measured as an empty field. */
class CsvWriterTest {

    @Test
    void headerThenOneRowPerCellWithUnmeasuredValuesLeftEmpty() {
        String csv = CsvWriter.render(List.of(
                new CellResult(Column.COMMITLOG, "batch", 4, 12_345.67, 0.5, 250.25, 1_000.125, 3_000, 4.25, 1_234_567,
                        2.0125, 1.79688, 18.2504),
                new CellResult("rocksdb", "", 8, 9_000, 400, 900, 1_500, 2_000, 4.5, 900_000, 3.5, Double.NaN),
                new CellResult("chronicle-queue", "", 1, 2_000_000, 0.2, 0.3, 0.4, Double.NaN, Double.NaN, 200_000_000,
                        Double.NaN, Double.NaN)));

        assertEquals("system,mode,threads,ops_per_s,p50_us,p99_us,p999_us,flushes_per_s,records_per_flush,bytes_per_s,"
                + "device_bytes_per_byte,device_bytes_per_framed_byte,cpu_us_per_record\n"
                + "commitlog,batch,4,12345.7,0.500,250.250,1000.125,3000.0,4.25,1234567,2.013,1.797,18.250\n"
                + "rocksdb,,8,9000.0,400.000,900.000,1500.000,2000.0,4.50,900000,3.500,,\n"
                + "chronicle-queue,,1,2000000.0,0.200,0.300,0.400,,,200000000,,,\n", csv);
    }
}
