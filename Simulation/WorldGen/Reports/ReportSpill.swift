import Foundation

/// Temporary files that hold report rows of a large world between batches (appended per name, read back once).
final class ReportSpill {
    let folder: URL
    private var handles: [String: FileHandle] = [:]

    /// Starts an empty spill folder (removing any left over).
    init(folder: URL) throws {
        self.folder = folder
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    /// Appends `bytes` to file `name`.
    func append(_ name: String, _ bytes: [UInt8]) throws {
        if handles[name] == nil {
            let url = folder.appendingPathComponent(name)
            _ = FileManager.default.createFile(atPath: url.path, contents: nil)
            handles[name] = try FileHandle(forWritingTo: url)
        }
        try handles[name]?.write(contentsOf: bytes)
    }

    /// The names written that start with `prefix`, without it.
    func names(prefix: String) -> [String] {
        handles.keys.filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }.sorted()
    }

    /// Everything appended to `name`.
    func read(_ name: String) throws -> [UInt8] {
        try handles[name]?.synchronize()
        return [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
    }

    /// Closes and deletes the files.
    func remove() throws {
        for handle in handles.values { try handle.close() }
        handles = [:]
        try FileManager.default.removeItem(at: folder)
    }
}
