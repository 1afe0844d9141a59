package dev.commitlog.codecs;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * The serializers commitlog-codecs adapts, each an optional dependency (a user adds the one they
 * use), and the check each codec's factory makes before it touches one: a missing jar is then one
 * error naming its Maven coordinates and the version tested here, not a
 * {@code NoClassDefFoundError} from wherever the JVM first needed a class of it.
 *
 * <p>The check works only because the public codec classes name no serializer type where the JVM
 * resolves it when it links them (a catch clause, an argument of a subtype, a value passed where an
 * interface is expected): the code that does lives in package-private classes loaded after the
 * check. {@code OptionalLibrariesTest} holds each codec to that, on a class path without the jar.
 */
enum OptionalLibrary {
    JACKSON_DATABIND("com.fasterxml.jackson.core", "jackson-databind", "jackson", "com.fasterxml.jackson.databind.ObjectMapper"),
    JACKSON_CBOR("com.fasterxml.jackson.dataformat", "jackson-dataformat-cbor", "jackson",
            "com.fasterxml.jackson.dataformat.cbor.databind.CBORMapper"),
    JACKSON_SMILE("com.fasterxml.jackson.dataformat", "jackson-dataformat-smile", "jackson",
            "com.fasterxml.jackson.dataformat.smile.databind.SmileMapper"),
    MSGPACK("org.msgpack", "msgpack-core", "msgpack", "org.msgpack.core.MessagePack"),
    PROTOBUF("com.google.protobuf", "protobuf-java", "protobuf", "com.google.protobuf.CodedOutputStream"),
    KRYO("com.esotericsoftware", "kryo", "kryo", "com.esotericsoftware.kryo.Kryo");

    private static final String VERSIONS = "tested-versions.properties";

    private final String coordinates;
    private final String versionKey;
    private final String probeClass;

    OptionalLibrary(String groupId, String artifactId, String versionKey, String probeClass) {
        this.coordinates = groupId + ":" + artifactId;
        this.versionKey = versionKey;
        this.probeClass = probeClass;
    }

    /** {@code groupId:artifactId}. */
    String coordinates() {
        return coordinates;
    }

    /** The version commitlog-codecs was built and tested with (the parent pom's). */
    String testedVersion() {
        return Versions.TESTED.getProperty(versionKey);
    }

    /**
     * Throws unless the library is on the class path.
     *
     * @param user what needs it, as the caller wrote it ("JacksonCodec.cbor")
     * @throws IllegalStateException naming the library's coordinates and the version tested here
     */
    void require(String user) {
        try {
            Class.forName(probeClass, false, OptionalLibrary.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            throw new IllegalStateException(missingMessage(user), e);
        }
    }

    /** What {@link #require} says when the library is missing. */
    String missingMessage(String user) {
        return user + " needs " + coordinates + " on the class path (commitlog-codecs was tested with " + testedVersion()
                + "; it declares each serializer optional, so add the one you use): class " + probeClass + " not found";
    }

    /** Read once, on the first error or query: nothing on the path of a codec whose library is there. */
    private static final class Versions {
        static final Properties TESTED = load();

        private static Properties load() {
            Properties versions = new Properties();
            try (InputStream in = OptionalLibrary.class.getResourceAsStream(VERSIONS)) {
                if (in == null) {
                    throw new IllegalStateException(VERSIONS + " is missing from commitlog-codecs' jar");
                }
                versions.load(in);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return versions;
        }
    }
}
