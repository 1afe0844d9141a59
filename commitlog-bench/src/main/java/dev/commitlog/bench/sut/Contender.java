package dev.commitlog.bench.sut;

import java.io.IOException;
import java.nio.file.Path;

/**
 * One column of the sweep table: a system in one configuration, able to open a fresh instance in
 * a directory. Implementations are cheap, immutable descriptions; all state lives in the
 * {@link SystemUnderTest} they open.
 */
public interface Contender {

    /** {@code commitlog} or the peer's name, as written in the CSV's {@code system} column. */
    String system();

    /** The commit log's mode label ({@code batch}, {@code group-10ms}, ...); empty for peers. */
    default String mode() {
        return "";
    }

    /** Whether an append that returned survives a crash (what the durable ratios compare). */
    boolean durable();

    /**
     * Whether this column is an ablation ({@code --ablation}: the commit log with one mechanism
     * switched off): shown in the tables, never used by the ratios or the targets.
     */
    default boolean ablation() {
        return false;
    }

    /**
     * Bytes one record of {@code recordBytes} takes in this system's files, when the harness knows
     * its framing (the commit log's aligned frame); 0 when it does not.
     */
    default int frameBytes(int recordBytes) {
        return 0;
    }

    /** Opens a fresh instance whose files live under {@code directory} (empty, already created). */
    SystemUnderTest open(Path directory, int recordBytes) throws IOException;

    /** The column heading: the mode for the commit log, the system name for peers. */
    default String label() {
        return mode().isEmpty() ? system() : mode();
    }

    /** One line for the report saying how the system is configured; shared by a system's columns. */
    default String settings() {
        return "";
    }
}
