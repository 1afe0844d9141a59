package dev.commitlog.config;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.StringJoiner;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.api.lowlevel.Compose;
import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.SequenceNode;
import org.snakeyaml.engine.v2.nodes.Tag;
import org.snakeyaml.engine.v2.schema.CoreSchema;

/**
 * Turns YAML into a {@link CommitLogConfig.Builder}; the builder checks the values.
 *
 * <p>It reads the node tree, not Java objects, because a scalar's text is what matters: YAML 1.2
 * reads an unquoted {@code 0600} as the decimal integer 600, while its text is the octal mode meant.
 * Every value is converted from its text, so a scalar is accepted exactly when its text is valid
 * (a number where a name is expected is rejected, since no name is a number). Working on nodes also
 * gives line numbers and lets duplicate keys be reported rather than silently overwritten.
 */
final class YamlConfigLoader {
    private YamlConfigLoader() {
    }

    static CommitLogConfig load(Path file) throws IOException {
        String text;
        try {
            text = Files.readString(file);
        } catch (CharacterCodingException e) {
            throw new ConfigException(null, null, file + ": is not UTF-8 text; expected a UTF-8 YAML file", e);
        } catch (FileSystemException e) {
            throw e; // NoSuchFileException, AccessDeniedException, ...: already name the file
        } catch (IOException e) {
            throw new IOException(file + ": " + e.getMessage(), e);
        }
        return read(text, file.toString(), file + ":");
    }

    static CommitLogConfig parse(String text) {
        return read(text, "<string>", "line ");
    }

    /**
     * @param label      names the source in the YAML parser's own messages
     * @param linePrefix put before a line number to say where an error is: {@code "file:"} or {@code "line "}
     */
    private static CommitLogConfig read(String text, String label, String linePrefix) {
        String source = linePrefix.endsWith(":") ? linePrefix.substring(0, linePrefix.length() - 1) : null;
        Node root = compose(text, label, source);
        if (root == null || (root instanceof ScalarNode && isNull((ScalarNode) root))) {
            throw documentError(source, "is empty; expected a YAML mapping of settings, at least "
                    + ConfigKey.COMMITLOG_DIRECTORY + " (e.g. " + ConfigKey.COMMITLOG_DIRECTORY + ": "
                    + ConfigKey.COMMITLOG_DIRECTORY.example + ")", null);
        }
        if (!(root instanceof MappingNode)) {
            throw documentError(source, "the top level is " + describe(root) + "; expected a mapping of key: value settings (e.g. "
                    + ConfigKey.COMMITLOG_DIRECTORY + ": " + ConfigKey.COMMITLOG_DIRECTORY.example + ")", null);
        }
        CommitLogConfig.Builder builder = CommitLogConfig.builder(null);
        Map<ConfigKey, Integer> lines = new HashMap<>();
        for (NodeTuple entry : ((MappingNode) root).getValue()) {
            int line = line(entry.getKeyNode());
            try {
                ConfigKey key = key(entry, lines);
                lines.put(key, line);
                apply(builder, key, scalar(key, entry.getValueNode()));
            } catch (ConfigException e) {
                throw e.locatedAt(linePrefix + line);
            }
        }
        try {
            return builder.build();
        } catch (ConfigException e) {
            // Rules spanning keys are found after reading; point at the key the message names.
            Integer line = e.key() == null ? null : ConfigKey.fromYaml(e.key()).map(lines::get).orElse(null);
            if (line != null) {
                throw e.locatedAt(linePrefix + line);
            }
            throw source != null ? e.locatedAt(source) : e;
        }
    }

    private static Node compose(String text, String label, String source) {
        LoadSettings settings = LoadSettings.builder().setLabel(label)
                .setSchema(new CoreSchema()) // YAML 1.2: ~, null and empty are null
                .build();
        try {
            return new Compose(settings).composeString(text).orElse(null);
        } catch (YamlEngineException e) {
            throw documentError(source, "is not valid YAML: " + e.getMessage().strip(), e);
        }
    }

    private static ConfigException documentError(String source, String problem, Throwable cause) {
        String subject = source != null ? source : "the configuration";
        return new ConfigException(null, null, subject + ": " + problem, cause);
    }

    private static ConfigKey key(NodeTuple entry, Map<ConfigKey, Integer> lines) {
        Node keyNode = entry.getKeyNode();
        String value = describeValue(entry.getValueNode());
        if (!(keyNode instanceof ScalarNode)) {
            String shown = describeValue(keyNode);
            throw new ConfigException(shown, value, shown + ": is not a key; expected a setting name such as "
                    + ConfigKey.COMMITLOG_DIRECTORY);
        }
        String name = ((ScalarNode) keyNode).getValue();
        Optional<ConfigKey> known = ConfigKey.fromYaml(name);
        if (known.isEmpty()) {
            String hint = ConfigKey.closest(name).map(k -> "did you mean " + k + "?").orElseGet(YamlConfigLoader::allKeys);
            throw new ConfigException(name, value, name + ": unknown key (given " + ConfigException.quoted(value) + "); " + hint);
        }
        Integer first = lines.get(known.get());
        if (first != null) {
            throw new ConfigException(name, value, name + ": duplicate key (given " + ConfigException.quoted(value) + "); it was already set on line "
                    + first + "; expected each key at most once");
        }
        return known.get();
    }

    /** The text of a single value; a list, a mapping or an empty value is an error. */
    private static String scalar(ConfigKey key, Node node) {
        if (!(node instanceof ScalarNode)) {
            String shown = describeValue(node);
            throw new ConfigException(key.toString(), shown, key + ": " + ConfigException.quoted(shown) + " is " + describe(node)
                    + "; expected a single value (e.g. " + key.example + ")");
        }
        ScalarNode scalar = (ScalarNode) node;
        if (isNull(scalar)) {
            String use = key == ConfigKey.COMMITLOG_DIRECTORY ? "it is required" : "or remove the line to use the default";
            throw ConfigException.invalid(key, scalar.getValue(), "is empty; expected a value (e.g. " + key.example + "), " + use);
        }
        return scalar.getValue();
    }

    private static void apply(CommitLogConfig.Builder builder, ConfigKey key, String text) {
        switch (key) {
            case COMMITLOG_DIRECTORY -> builder.directory(path(key, text));
            case COMMITLOG_SYNC -> builder.syncMode(YamlNames.parse(key, text, SyncMode.class));
            case COMMITLOG_SYNC_PERIOD -> builder.syncPeriod(Units.parseDuration(key, text));
            case COMMITLOG_SYNC_GROUP_WINDOW -> builder.groupWindow(Units.parseDuration(key, text));
            case PERIODIC_COMMITLOG_SYNC_LAG_BLOCK -> builder.periodicLagBlock(Units.parseDuration(key, text));
            case COMMITLOG_DURABLE_MARK_INTERVAL -> builder.durableMarkInterval(Units.parseDuration(key, text));
            case COMMITLOG_SEGMENT_SIZE -> builder.segmentSizeBytes(Units.parseSize(key, text));
            case MAX_RECORD_SIZE -> builder.maxRecordSizeBytes(Units.parseSize(key, text));
            case COMMITLOG_TOTAL_SPACE -> builder.totalSpace(Units.parseSize(key, text));
            case COMMITLOG_RECYCLE_SEGMENTS -> builder.recycleSegments(count(key, text));
            case COMMITLOG_DISK_ACCESS_MODE -> builder.diskAccessMode(YamlNames.parse(key, text, DiskAccessMode.class));
            case COMMIT_FAILURE_POLICY -> builder.commitFailurePolicy(YamlNames.parse(key, text, CommitFailurePolicy.class));
            case COMMITLOG_REPLAY_POLICY -> builder.replayPolicy(YamlNames.parse(key, text, ReplayPolicy.class));
            case COMMITLOG_FILE_MODE -> builder.filePermissions(FileMode.parse(key, text));
            case COMMITLOG_COMPRESSION -> builder.compression(YamlNames.parse(key, text, Compression.class));
            case COMMITLOG_COMPRESSION_LEVEL -> builder.compressionLevel(level(key, text));
            case COMMITLOG_ENCRYPTION -> builder.encryption(YamlNames.parse(key, text, Encryption.class));
        }
        builder.spelled(key, text);
    }

    private static int count(ConfigKey key, String text) {
        try {
            return Integer.parseInt(text.trim());
        } catch (NumberFormatException e) {
            throw ConfigException.invalid(key, text, "is not a whole number; expected a count (e.g. " + key.example + ")");
        }
    }

    private static int level(ConfigKey key, String text) {
        try {
            return Integer.parseInt(text.trim());
        } catch (NumberFormatException e) {
            throw ConfigException.invalid(key, text, "is not a whole number; expected a compression level (e.g. " + key.example + ")");
        }
    }

    private static Path path(ConfigKey key, String text) {
        try {
            return Path.of(text);
        } catch (InvalidPathException e) {
            throw ConfigException.invalid(key, text, "is not a valid path (" + e.getReason() + "); expected a directory (e.g. "
                    + key.example + ")");
        }
    }

    /** Plain empty, {@code ~} and {@code null}: YAML's ways of writing no value. */
    private static boolean isNull(ScalarNode scalar) {
        return Tag.NULL.equals(scalar.getTag()) || (scalar.isPlain() && scalar.getValue().isEmpty());
    }

    private static String describe(Node node) {
        if (node instanceof SequenceNode) {
            return "a list";
        }
        if (node instanceof MappingNode) {
            return "a mapping";
        }
        return "the single value " + ConfigException.quoted(((ScalarNode) node).getValue());
    }

    /** A short flow-style rendering of a node, for messages. */
    private static String describeValue(Node node) {
        String text = render(node, 0);
        return text.length() <= 80 ? text : text.substring(0, 77) + "...";
    }

    private static String render(Node node, int depth) {
        if (node instanceof ScalarNode) {
            return ((ScalarNode) node).getValue();
        }
        if (depth > 2) {
            return "...";  // also stops at aliases that make a collection contain itself
        }
        if (node instanceof SequenceNode) {
            StringJoiner items = new StringJoiner(", ", "[", "]");
            ((SequenceNode) node).getValue().forEach(item -> items.add(render(item, depth + 1)));
            return items.toString();
        }
        StringJoiner entries = new StringJoiner(", ", "{", "}");
        for (NodeTuple entry : ((MappingNode) node).getValue()) {
            entries.add(render(entry.getKeyNode(), depth + 1) + ": " + render(entry.getValueNode(), depth + 1));
        }
        return entries.toString();
    }

    private static String allKeys() {
        StringJoiner keys = new StringJoiner(", ", "expected one of ", "");
        for (ConfigKey key : ConfigKey.values()) {
            keys.add(key.toString());
        }
        return keys.toString();
    }

    /** One-based, as editors count. */
    private static int line(Node node) {
        return node.getStartMark().map(Mark::getLine).orElse(-1) + 1;
    }
}
