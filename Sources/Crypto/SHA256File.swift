import Foundation

extension SHA256Digest {
    /// The SHA-256 of the file at `path` as 64 lower-case hex digits, read in 1 MiB chunks through `SHA256Hasher`
    /// (never whole), or nil when it cannot be read.
    public static func hex(fileAt path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        let hasher = SHA256Hasher()
        while true {
            let chunk: Data?
            do { chunk = try handle.read(upToCount: 1 << 20) } catch { return nil }
            guard let data = chunk, !data.isEmpty else { break }
            hasher.update([UInt8](data))
        }
        return hasher.hex()
    }
}
