import Foundation

/// The truth's report files (paths relative to the truth folder's `reports/`), read on demand.
struct ReportFiles: Sendable {
    let folder: URL?
    let paths: Set<String>

    /// The bytes of `path`, or nil when the truth has no such file.
    func read(_ path: String) -> Data? {
        guard let folder, paths.contains(path) else { return nil }
        return try? Data(contentsOf: folder.appendingPathComponent(path))
    }

    /// Size and modification time of `path`.
    func attributes(_ path: String) -> (size: Int, modified: Date)? {
        guard let folder, paths.contains(path),
              let attributes = try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(path).path) else {
            return nil
        }
        let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
        return (size, attributes[.modificationDate] as? Date ?? Date(timeIntervalSince1970: 0))
    }
}
