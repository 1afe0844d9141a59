package dev.commitlog.section;

/**
 * A section that did not decode: the caller got no bytes from it. Checked, so every reader decides
 * what the damage means ({@link SectionDamage}), as replay's policy does for frames.
 */
public final class DamagedSectionException extends Exception {
    private static final long serialVersionUID = 1L;

    private final SectionDamage damage;
    private final long fileOffset;

    public DamagedSectionException(SectionDamage damage, long fileOffset, String reason) {
        this(damage, fileOffset, reason, null);
    }

    public DamagedSectionException(SectionDamage damage, long fileOffset, String reason, Throwable cause) {
        super("damaged section at file offset " + fileOffset + " (" + damage + "): " + reason, cause);
        this.damage = damage;
        this.fileOffset = fileOffset;
    }

    public SectionDamage damage() {
        return damage;
    }

    /** Where the section starts in its segment file. */
    public long fileOffset() {
        return fileOffset;
    }
}
