#if canImport(Glibc)
import Glibc
#endif
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

    /// A private key file's bytes; refused (without reading it) when group or others may read or write it.
    package static func readPrivateKey(_ path: String) throws -> Data {
        var info = stat()
        if stat(path, &info) == 0, UInt32(info.st_mode) & 0o077 != 0 {
            throw CryptoError.unreadableFile(path: path, reason: "a private key file must be mode 0600 or stricter, not 0"
                                             + String(UInt32(info.st_mode) & 0o777, radix: 8))
        }
        return try readData(path)
    }
}
