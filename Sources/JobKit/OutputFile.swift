import Foundation

/// How a job puts a finished output file (a report, a reconciliation CSV, a downloaded store report) in place: its
/// mode set to `mode` whatever the process's umask (owner read-write, group read: the service user writes, a finance
/// or operations group may read, nobody else), then renamed over the final name in one step, so the final name
/// never holds a half-written file. The drift textfile is the one exception (0644, node_exporter reads it as another
/// user: Monitoring's TextfileWriter).
public enum OutputFile {
    /// The mode of every file a job writes for people: 0640.
    public static let mode: mode_t = 0o640

    /// Sets `temporary`'s mode to `mode` and renames it to `final`; on failure removes `temporary` and throws a
    /// `FileSystemError` naming the path and the operation.
    public static func place(_ temporary: URL, at final: URL) throws {
        guard chmod(temporary.path, mode) == 0 else {
            let code = errno
            try? FileManager.default.removeItem(at: temporary)
            throw FileSystemError.posix("set the mode of", temporary.path, errno: code)
        }
        guard rename(temporary.path, final.path) == 0 else {
            let code = errno
            try? FileManager.default.removeItem(at: temporary)
            throw FileSystemError.posix("rename \(temporary.path) to", final.path, errno: code)
        }
    }
}
