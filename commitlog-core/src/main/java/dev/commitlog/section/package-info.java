/**
 * Sections: the unit in which a compressed or encrypted segment is stored. A section is one flushed
 * range of plain frames (what one flush writes), transformed on its way to the file: compressed,
 * then encrypted, behind a header that says where in the log the range belongs
 * ({@link dev.commitlog.section.SectionDescriptor}). Log positions stay logical: a reader decodes
 * sections back into the plain frames the appenders wrote.
 *
 * <p>{@link dev.commitlog.section.SectionEncoder} and {@link dev.commitlog.section.SectionDecoder}
 * are the transform and its inverse; each is confined to one thread and reuses its buffers, its
 * compressor ({@link dev.commitlog.section.BlockCompressor}) and its {@code Cipher}
 * ({@link dev.commitlog.section.SectionCipher}). A section that does not verify is a
 * {@link dev.commitlog.section.DamagedSectionException} of a
 * {@link dev.commitlog.section.SectionDamage} kind, never bytes. The engine does not write sections
 * yet: docs/format.md, "Sections", is the draft this package implements.
 */
package dev.commitlog.section;
