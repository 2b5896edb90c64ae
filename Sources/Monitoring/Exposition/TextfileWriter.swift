import Foundation

/// Writes a file the way node_exporter's textfile collector needs: to a hidden temporary file in the same folder,
/// then renamed over the target, so a scrape never reads a half-written file.
public enum TextfileWriter {
    /// Writes `text` to `folder/fileName` atomically; returns the final path.
    @discardableResult
    public static func write(_ text: String, folder: URL, fileName: String) throws -> URL {
        let target = folder.appendingPathComponent(fileName)
        let temporary = folder.appendingPathComponent(".\(fileName).\(ProcessInfo.processInfo.processIdentifier).tmp")
        try Data(text.utf8).write(to: temporary)
        guard rename(temporary.path, target.path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            throw TextfileWriterError(path: target.path, reason: reason)
        }
        return target
    }
}

/// The rename into the target folder failed.
public struct TextfileWriterError: Error, CustomStringConvertible {
    public let path: String
    public let reason: String
    public var description: String { "cannot rename the metrics file into \(path): \(reason)" }
}
