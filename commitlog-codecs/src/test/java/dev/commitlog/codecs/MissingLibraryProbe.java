package dev.commitlog.codecs;

import java.nio.ByteBuffer;

/**
 * Run by {@link OptionalLibrariesTest} in a class loader that lacks some serializer jars: makes one
 * codec the way a user would and says what happened, as one line. Names no serializer type itself,
 * so that only the codec under test can fail on a missing jar.
 */
public final class MissingLibraryProbe {
    private MissingLibraryProbe() {
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    public static String run(String scenario) {
        try {
            return switch (scenario) {
                case "json" -> {
                    JacksonCodec<String> codec = JacksonCodec.json(String.class);
                    ByteBuffer buffer = ByteBuffer.allocate(64);
                    codec.encode("hello", buffer);
                    yield "ok " + codec.decode(buffer.flip());
                }
                case "cbor" -> "made " + JacksonCodec.cbor(String.class);
                case "smile" -> "made " + JacksonCodec.smile(String.class);
                case "msgpack" -> "made " + new MsgpackCodec<String>(null, "msgpack");
                case "protobuf" -> "made " + ProtobufCodec.of((ProtobufSchema<String>) null, "protobuf");
                case "kryo" -> "made " + KryoCodec.unbounded((java.util.function.Supplier) null, String.class);
                default -> throw new IllegalArgumentException("unknown scenario " + scenario);
            };
        } catch (Throwable e) {
            return e.getClass().getName() + ": " + e.getMessage();
        }
    }
}
