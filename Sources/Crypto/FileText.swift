import Foundation

/// Reads key and certificate files, turning failures into `CryptoError.unreadableFile`.
package enum FileText {
    /// The file's bytes.
    package static func readData(_ path: String) throws -> Data {
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw CryptoError.unreadableFile(path: path, reason: error.localizedDescription)
        }
    }

    /// The file's text as UTF-8.
    package static func read(_ path: String) throws -> String {
        String(decoding: try readData(path), as: UTF8.self)
    }
}
