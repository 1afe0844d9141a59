package dev.commitlog.section;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * The compression libraries sections use, each an optional dependency of commitlog-core (a user
 * adds the one they configure), and the check made before any class of one is touched: a missing
 * jar is then one error naming its Maven coordinates and the version tested here, not a
 * {@code NoClassDefFoundError} from wherever the JVM first needed a class of it. It works because
 * only the package-private {@code Lz4BlockCompressor} and {@code ZstdBlockCompressor} name the
 * libraries' types, and they are loaded after the check ({@code CodecLibraryTest} holds it to that).
 */
enum CodecLibrary {
    LZ4("lz4", "at.yawk.lz4:lz4-java", "lz4", "net.jpountz.lz4.LZ4Factory"),
    ZSTD("zstd", "com.github.luben:zstd-jni", "zstd", "com.github.luben.zstd.ZstdCompressCtx");

    private static final String VERSIONS = "tested-versions.properties";

    private final String codec;
    private final String coordinates;
    private final String versionKey;
    private final String probeClass;

    CodecLibrary(String codec, String coordinates, String versionKey, String probeClass) {
        this.codec = codec;
        this.coordinates = coordinates;
        this.versionKey = versionKey;
        this.probeClass = probeClass;
    }

    /** {@code groupId:artifactId}. */
    String coordinates() {
        return coordinates;
    }

    /** The version commitlog-core was built and tested with (the parent pom's). */
    String testedVersion() {
        return Versions.TESTED.getProperty(versionKey);
    }

    /** @throws IllegalStateException naming the library's coordinates and tested version, unless it is on the class path */
    void require() {
        try {
            Class.forName(probeClass, false, CodecLibrary.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            throw new IllegalStateException(missingMessage(), e);
        }
    }

    String missingMessage() {
        return "commitlog_compression: " + codec + " needs " + coordinates + " on the class path (commitlog-core was tested with "
                + testedVersion() + "; it declares each compression library optional, so add the one you configure): class "
                + probeClass + " not found";
    }

    /** Read on the first error or query only. */
    private static final class Versions {
        static final Properties TESTED = load();

        private static Properties load() {
            Properties versions = new Properties();
            try (InputStream in = CodecLibrary.class.getResourceAsStream(VERSIONS)) {
                if (in == null) {
                    throw new IllegalStateException(VERSIONS + " is missing from commitlog-core's jar");
                }
                versions.load(in);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return versions;
        }
    }
}
