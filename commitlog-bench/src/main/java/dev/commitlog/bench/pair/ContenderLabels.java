package dev.commitlog.bench.pair;

import dev.commitlog.bench.UsageException;
import dev.commitlog.bench.peer.PeerCatalog;
import dev.commitlog.bench.sut.BaselineContender;
import dev.commitlog.bench.sut.CommitLogContender;
import dev.commitlog.bench.sut.CommitLogModes;
import dev.commitlog.bench.sut.Contender;
import dev.commitlog.bench.sut.SyncAblation;
import dev.commitlog.bench.sweep.LogSections;
import dev.commitlog.config.Compression;
import dev.commitlog.config.Encryption;
import dev.commitlog.config.SyncMode;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Any sweep column by the label the sweep's tables give it: {@code batch}, {@code group-2ms},
 * {@code adaptive-nogather}, {@code rocksdb}, and a commit-log mode storing its flushes as sections
 * as a sweep with {@code --compression}/{@code --encryption} labels it: {@code adaptive+lz4},
 * {@code adaptive+aes}, {@code group-2ms+zstd+aes}. Sections go on the column's label, not on
 * flags of their own, so that each side of a pair says all of what it runs, and
 * {@code --a adaptive+aes --b adaptive} is encryption against plain in one command.
 */
final class ContenderLabels {
    private static final Pattern GROUP = Pattern.compile("group-(\\d{1,5})ms");
    private static final String BASELINE = "baseline-";
    /** What may follow a commit-log mode's label, each once, in any order: {@code +lz4}, {@code +zstd}, {@code +aes}. */
    private static final String SECTIONS = "+lz4, +zstd, +aes (or +aes-gcm)";

    private ContenderLabels() {
    }

    /** This build's modes as a user names them, group as {@code group-Nms}. */
    private static List<String> modeLabels() {
        return CommitLogModes.names().stream().map(m -> m.equals("group") ? "group-Nms" : m).toList();
    }

    /** The labels a user can name, for messages. */
    static String known() {
        return String.join(", ", modeLabels())
                + ", " + String.join(", ", SyncAblation.labels()) + ", " + String.join(", ", PeerCatalog.names())
                + "; a mode or group-Nms followed by " + SECTIONS + " (e.g. adaptive+lz4)";
    }

    /**
     * Whether {@code label} names a column; checked while parsing, before any native library loads.
     * Returns the label as the sweep writes it: lower case, sections in the order {@code +codec+aes}.
     */
    static String check(String flag, String label, boolean baseline) throws UsageException {
        String l = label.toLowerCase(Locale.ROOT);
        int plus = l.indexOf('+');
        if (plus < 0) {
            return checkColumn(flag, label, l, baseline);
        }
        String column = checkColumn(flag, label, l.substring(0, plus), baseline);
        if (!engineMode(column)) {
            throw new UsageException(flag + ": '" + label + "': sections (" + SECTIONS + ") apply to this build's "
                    + "commit-log modes only: " + String.join(", ", modeLabels()));
        }
        return column + sections(flag, label, l.substring(plus + 1)).labelSuffix();
    }

    /** Whether a checked column without sections is one of this build's modes (not an ablation, a peer or a baseline). */
    private static boolean engineMode(String column) {
        return CommitLogModes.names().contains(column) || GROUP.matcher(column).matches();
    }

    /** The sections named after the first {@code +} of {@code label}: each codec or cipher once, at most one codec. */
    private static LogSections sections(String flag, String label, String suffix) throws UsageException {
        Compression compression = Compression.NONE;
        Encryption encryption = Encryption.NONE;
        for (String part : suffix.split("\\+", -1)) {
            switch (part) {
                case "lz4", "zstd" -> {
                    if (compression != Compression.NONE) {
                        throw new UsageException(flag + ": '" + label + "' names two codecs (one of +lz4, +zstd)");
                    }
                    compression = part.equals("lz4") ? Compression.LZ4 : Compression.ZSTD;
                }
                case "aes", "aes-gcm" -> {
                    if (encryption != Encryption.NONE) {
                        throw new UsageException(flag + ": '" + label + "' names encryption twice");
                    }
                    encryption = Encryption.AES_GCM;
                }
                default -> throw new UsageException(flag + ": '" + label + "': unknown section '" + part + "' ("
                        + SECTIONS + ")");
            }
        }
        return new LogSections(compression, encryption, false);
    }

    private static String checkColumn(String flag, String label, String l, boolean baseline) throws UsageException {
        if (l.startsWith(BASELINE)) {
            if (!baseline) {
                throw new UsageException(flag + ": '" + label + "' needs --baseline-jar (the build whose engine it opens)");
            }
            String engine = l.substring(BASELINE.length());
            if (!CommitLogModes.names().contains(engine) && !GROUP.matcher(engine).matches() || engine.equals("group")) {
                throw new UsageException(flag + ": '" + label + "' names no mode (baseline-periodic, baseline-batch, "
                        + "baseline-adaptive, baseline-group-Nms)");
            }
            return l;
        }
        Matcher group = GROUP.matcher(l);
        boolean mode = CommitLogModes.names().contains(l) && !l.equals("group");
        boolean window = group.matches() && Integer.parseInt(group.group(1)) >= 1 && Integer.parseInt(group.group(1)) <= 60_000;
        if (mode || window || SyncAblation.labels().contains(l) || PeerCatalog.exists(l)) {
            return l;
        }
        throw new UsageException(flag + ": unknown column '" + label + "' (columns: " + known() + ")");
    }

    /** The contender a checked label names; a peer's native library loads here. */
    static Contender create(String label, Path baseline) throws IOException {
        int plus = label.indexOf('+');
        if (plus >= 0) {
            LogSections sections;
            try {
                sections = sections("column", label, label.substring(plus + 1));
            } catch (UsageException e) {
                throw new IllegalArgumentException("not a checked label: " + e.getMessage(), e);
            }
            CommitLogContender plain = (CommitLogContender) create(label.substring(0, plus), baseline);
            return plain.withSections(sections.compression(), sections.encryption());
        }
        if (label.startsWith(BASELINE)) {
            String engine = label.substring(BASELINE.length());
            Matcher window = GROUP.matcher(engine);
            return window.matches()
                    ? new BaselineContender(baseline, "group", Duration.ofMillis(Integer.parseInt(window.group(1))))
                    : new BaselineContender(baseline, engine, null);
        }
        Matcher group = GROUP.matcher(label);
        if (group.matches()) {
            return new CommitLogContender(SyncMode.GROUP, Duration.ofMillis(Integer.parseInt(group.group(1))));
        }
        if (CommitLogModes.names().contains(label)) {
            return new CommitLogContender(SyncMode.valueOf(label.toUpperCase(Locale.ROOT)), null);
        }
        List<CommitLogContender> ablation = CommitLogModes.ablations(List.of(label));
        return ablation.isEmpty() ? PeerCatalog.create(label) : ablation.get(0);
    }
}
