package dev.commitlog.section;

/**
 * Why a section did not decode. The replay layer maps each kind to its damage policy: all but
 * {@link #UNKNOWN_KEY} are damage to the bytes (a torn tail at or after the durable mark,
 * corruption below it); an unknown key is a missing key, which must refuse to open rather than cut
 * the log there.
 */
public enum SectionDamage {
    /** Fewer bytes than the header and its body claim: a torn last section, or a cut file. */
    TRUNCATED,
    /** The first word is 0: nothing was written here (the end of a segment's sections). */
    UNWRITTEN,
    /** Magic, header CRC, or a field out of range: an earlier life's bytes, a torn or damaged header. */
    BAD_HEADER,
    /** A section that verifies, but holds other log positions than the ones expected at its place. */
    MISPLACED,
    /** The body or its padding fails the body CRC: a torn or damaged body. */
    BAD_BODY,
    /**
     * The tag did not verify: the body or header was altered, the section was moved to another
     * position, segment or life, or the key under this id is not the one it was written with.
     */
    NOT_AUTHENTIC,
    /** The key id names no key the key provider has. */
    UNKNOWN_KEY,
    /** The body verified but does not decompress to the logical length (a codec fault). */
    BAD_COMPRESSED_DATA
}
