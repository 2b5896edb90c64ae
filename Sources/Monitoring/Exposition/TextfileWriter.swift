import Foundation

/// Writes a file the way node_exporter's textfile collector needs: to a hidden temporary file in the same folder,
/// flushed to disk, made mode 0644 (whatever the process's umask: the units run with `UMask=0077`, and the
/// collector runs as another user), then renamed over the target, so a scrape never reads a half-written file.
public enum TextfileWriter {
    /// The mode of every file written: the owner writes, everyone reads.
    public static let mode: mode_t = 0o644

    /// Writes `text` to `folder/fileName` atomically with mode 0644; returns the final path.
    @discardableResult
    public static func write(_ text: String, folder: URL, fileName: String) throws -> URL {
        let target = folder.appendingPathComponent(fileName)
        let temporary = folder.appendingPathComponent(".\(fileName).\(ProcessInfo.processInfo.processIdentifier).tmp")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw TextfileWriterError(path: temporary.path, operation: "create", reason: errnoText()) }
        var failure: TextfileWriterError?
        let bytes = Array(text.utf8)
        var written = 0
        while failure == nil, written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno != EINTR { failure = TextfileWriterError(path: temporary.path, operation: "write", reason: errnoText()) }
            if count > 0 { written += count }
        }
        if failure == nil, fchmod(descriptor, mode) != 0 {
            failure = TextfileWriterError(path: temporary.path, operation: "chmod 0644", reason: errnoText())
        }
        if failure == nil, fsync(descriptor) != 0 { failure = TextfileWriterError(path: temporary.path, operation: "fsync", reason: errnoText()) }
        if close(descriptor) != 0, failure == nil { failure = TextfileWriterError(path: temporary.path, operation: "close", reason: errnoText()) }
        if failure == nil, rename(temporary.path, target.path) != 0 {
            failure = TextfileWriterError(path: target.path, operation: "rename \(temporary.lastPathComponent) into", reason: errnoText())
        }
        if let failure {
            unlink(temporary.path)
            throw failure
        }
        return target
    }

    private static func errnoText() -> String { String(cString: strerror(errno)) }
}

/// Writing the metrics file failed: the path, the operation and the system's reason.
public struct TextfileWriterError: Error, CustomStringConvertible {
    public let path: String
    public let operation: String
    public let reason: String
    public var description: String { "cannot \(operation) \(path): \(reason)" }
}
