package dev.commitlog.disk;

import java.nio.file.OpenOption;

/**
 * {@code O_DIRECT} as an {@link OpenOption}: the JDK's {@code com.sun.nio.file.ExtendedOpenOption.DIRECT},
 * looked up by name. Named in source, javac 25 warns about it as internal proprietary API, and
 * this build treats warnings as errors.
 */
public final class DirectOpenOption {
    private static final OpenOption DIRECT = lookUp();

    private DirectOpenOption() {
    }

    /**
     * The option.
     *
     * @throws UnsupportedOperationException if this JDK has no {@code ExtendedOpenOption.DIRECT}
     */
    public static OpenOption direct() {
        if (DIRECT == null) {
            throw new UnsupportedOperationException("this JDK has no com.sun.nio.file.ExtendedOpenOption.DIRECT (O_DIRECT)");
        }
        return DIRECT;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static OpenOption lookUp() {
        try {
            return (OpenOption) Enum.valueOf((Class) Class.forName("com.sun.nio.file.ExtendedOpenOption"), "DIRECT");
        } catch (ClassNotFoundException | IllegalArgumentException e) {
            return null;
        }
    }
}
