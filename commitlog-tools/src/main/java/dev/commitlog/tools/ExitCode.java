package dev.commitlog.tools;

/** The tool's exit codes, the same for every command (documented in {@code docs/operations.md}). */
final class ExitCode {
    /** Done; for verify: the log opens under the policy checked (a torn tail is a notice). */
    static final int OK = 0;
    /** verify found damage that opening under the policy checked would refuse. */
    static final int DAMAGED = 1;
    /** Bad arguments: unknown command or option, bad value, missing or unreadable directory, not a log directory, a bad keystore option. */
    static final int USAGE = 2;
    /** The command could not do its work: the log is open (truncate-after), a cut was refused, a key id the keystore lacks, an I/O error. */
    static final int FAILED = 3;

    private ExitCode() {
    }
}
