package dev.commitlog.codecs;

import static org.junit.jupiter.api.Assertions.*;

import java.io.File;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Each serializer is an optional dependency of commitlog-codecs: with only jackson-databind on the
 * class path, {@code JacksonCodec.json} works; a codec whose library is missing fails when it is
 * made, with one error naming the library's Maven coordinates and the version tested here (the
 * parent pom's), never a {@code NoClassDefFoundError}. Each case runs {@link MissingLibraryProbe} in
 * a class loader over this test's class path minus the jars named.
 */
class OptionalLibrariesTest {
    @Test
    void jsonNeedsOnlyJacksonDatabind() throws Exception {
        assertEquals("ok hello", probe("json", "jackson-dataformat-cbor", "jackson-dataformat-smile"));
    }

    @Test
    void jsonWithoutJacksonDatabindNamesIt() throws Exception {
        assertMissing(probe("json", "jackson-databind"), "JacksonCodec.json", "com.fasterxml.jackson.core:jackson-databind", "jackson.version");
    }

    @Test
    void cborWithoutItsJarNamesIt() throws Exception {
        String result = probe("cbor", "jackson-dataformat-cbor");
        assertMissing(result, "JacksonCodec.cbor", "com.fasterxml.jackson.dataformat:jackson-dataformat-cbor", "jackson.version");
        assertEquals("java.lang.IllegalStateException: " + OptionalLibrary.JACKSON_CBOR.missingMessage("JacksonCodec.cbor"), result,
                "the message docs/codecs.md shows");
    }

    @Test
    void smileWithoutItsJarNamesIt() throws Exception {
        assertMissing(probe("smile", "jackson-dataformat-smile"), "JacksonCodec.smile",
                "com.fasterxml.jackson.dataformat:jackson-dataformat-smile", "jackson.version");
    }

    @Test
    void msgpackWithoutItsJarNamesIt() throws Exception {
        assertMissing(probe("msgpack", "msgpack-core"), "MsgpackCodec", "org.msgpack:msgpack-core", "msgpack.version");
    }

    @Test
    void protobufWithoutItsJarNamesIt() throws Exception {
        assertMissing(probe("protobuf", "protobuf-java"), "ProtobufCodec", "com.google.protobuf:protobuf-java", "protobuf.version");
    }

    @Test
    void kryoWithoutItsJarNamesIt() throws Exception {
        assertMissing(probe("kryo", "kryo"), "KryoCodec", "com.esotericsoftware:kryo", "kryo.version");
    }

    /** With every jar there, the probe gets past the check (to the null it passes on purpose). */
    @Test
    void withEveryJarTheCodecsAreMade() throws Exception {
        assertEquals("ok hello", probe("json"));
        assertTrue(probe("cbor").startsWith("made jackson-cbor"));
        assertTrue(probe("smile").startsWith("made jackson-smile"));
        assertEquals("java.lang.NullPointerException: schema", probe("msgpack"));
        assertEquals("java.lang.NullPointerException: schema", probe("protobuf"));
        assertEquals("java.lang.NullPointerException: kryos", probe("kryo"));
    }

    private static void assertMissing(String result, String codec, String coordinates, String versionProperty) throws Exception {
        String version = parentPomProperty(versionProperty);
        assertTrue(result.startsWith("java.lang.IllegalStateException: " + codec + " needs " + coordinates + " on the class path "
                + "(commitlog-codecs was tested with " + version + "; "), result);
    }

    /** The probe's answer, run where the jars whose artifactIds are given are not on the class path. */
    private static String probe(String scenario, String... missingArtifacts) throws Exception {
        List<URL> urls = new ArrayList<>();
        List<String> left = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(Pattern.quote(File.pathSeparator))) {
            String name = Path.of(entry).getFileName().toString();
            boolean missing = false;
            for (String artifact : missingArtifacts) {
                missing |= name.matches(Pattern.quote(artifact) + "-\\d.*\\.jar");
            }
            if (missing) {
                left.add(name);
            } else {
                urls.add(Path.of(entry).toUri().toURL());
            }
        }
        assertEquals(missingArtifacts.length, left.size(), "each jar left out was on the class path: " + left);
        try (URLClassLoader loader = new URLClassLoader(urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader())) {
            Class<?> probe = Class.forName(MissingLibraryProbe.class.getName(), true, loader);
            assertNotSame(MissingLibraryProbe.class, probe, "the probe runs in its own loader");
            return (String) probe.getMethod("run", String.class).invoke(null, scenario);
        }
    }

    private static String parentPomProperty(String name) throws Exception {
        Matcher m = Pattern.compile("<" + Pattern.quote(name) + ">([^<]+)</").matcher(Files.readString(Path.of("../pom.xml")));
        assertTrue(m.find(), name + " in the parent pom");
        return m.group(1);
    }
}
