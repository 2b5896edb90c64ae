import Crypto
import Foundation
import JobKit

/// Writes one CSV file in chunks (RFC 4180 through `CSVEncoder`) and hashes it as it goes, so a report of millions
/// of rows is never held in memory as text.
final class CSVFileWriter {
    private let handle: FileHandle
    private let path: String
    private let hasher = SHA256Hasher()
    private var encoder = CSVEncoder()
    /// Bytes buffered before they are written.
    private let chunkSize = 1 << 20

    /// A writer that creates (or truncates) the file at `url`.
    init(url: URL) throws {
        path = url.path
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw FileSystemError.posix("create", url.path, errno: errno)
        }
        handle = try FileSystemError.perform("open for writing", url.path) { try FileHandle(forWritingTo: url) }
    }

    /// Appends one record.
    func append(_ fields: [String?]) throws {
        encoder.append(fields)
        if encoder.bytes.count >= chunkSize { try flush() }
    }

    /// Appends records already encoded (`CSVEncoder`'s bytes: whole lines).
    func appendEncoded(_ bytes: UnsafeRawBufferPointer) throws {
        try flush()
        guard !bytes.isEmpty else { return }
        hasher.update(bytes)
        try FileSystemError.perform("write", path) { try handle.write(contentsOf: bytes) }
    }

    /// Writes what is left, closes the file and returns the SHA-256 of its whole content.
    func finish() throws -> String {
        try flush()
        try FileSystemError.perform("close", path) { try handle.close() }
        return hasher.hex()
    }

    private func flush() throws {
        let bytes = encoder.takeBytes()
        guard !bytes.isEmpty else { return }
        hasher.update(bytes)
        try FileSystemError.perform("write", path) { try handle.write(contentsOf: bytes) }
    }
}
