import CArchive

/// Deterministic zip archives through libarchive: entries in the given order, fixed mtimes, mode 0644,
/// uid/gid 0, deflate.
public enum ZipArchive {
    /// Why an archive could not be written or read.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong, with libarchive's message.
        public let description: String
    }

    /// A zip holding `entries` (name, bytes), every entry stamped `mtime` (epoch seconds).
    public static func make(_ entries: [(String, [UInt8])], mtime: Int64) throws -> [UInt8] {
        guard let archive = archive_write_new() else { throw Failure(description: "archive_write_new failed") }
        defer { archive_write_free(archive) }
        let capacity = entries.reduce(65_536) { $0 + $1.1.count + 2 * $1.0.utf8.count + 512 }
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
        defer { buffer.deallocate() }
        let used = UnsafeMutablePointer<Int>.allocate(capacity: 1)
        defer { used.deallocate() }
        used.pointee = 0
        try check(archive, archive_write_set_format_zip(archive))
        try check(archive, archive_write_set_options(archive, "zip:compression=deflate"))
        try check(archive, archive_write_open_memory(archive, buffer, capacity, used))
        for (name, bytes) in entries {
            guard let entry = archive_entry_new() else { throw Failure(description: "archive_entry_new failed") }
            defer { archive_entry_free(entry) }
            archive_entry_set_pathname(entry, name)
            archive_entry_set_size(entry, la_int64_t(bytes.count))
            archive_entry_set_filetype(entry, 0o100000)
            archive_entry_set_perm(entry, 0o644)
            archive_entry_set_mtime(entry, time_t(mtime), 0)
            archive_entry_set_uid(entry, 0)
            archive_entry_set_gid(entry, 0)
            try check(archive, archive_write_header(archive, entry))
            let written = bytes.withUnsafeBytes { archive_write_data(archive, $0.baseAddress, $0.count) }
            guard written == bytes.count else { throw Failure(description: "short write of \(name)") }
        }
        try check(archive, archive_write_close(archive))
        return Array(UnsafeRawBufferPointer(start: buffer, count: used.pointee))
    }

    /// The entries (name, bytes) of a zip, in archive order.
    public static func entries(_ zip: [UInt8]) throws -> [(String, [UInt8])] {
        guard let archive = archive_read_new() else { throw Failure(description: "archive_read_new failed") }
        defer { archive_read_free(archive) }
        try check(archive, archive_read_support_format_zip(archive))
        var result: [(String, [UInt8])] = []
        try zip.withUnsafeBytes { raw in
            try check(archive, archive_read_open_memory(archive, raw.baseAddress, raw.count))
            var entry: OpaquePointer?
            while archive_read_next_header(archive, &entry) == ARCHIVE_OK {
                let name = archive_entry_pathname(entry).map { String(cString: $0) } ?? ""
                var bytes: [UInt8] = []
                var chunk = [UInt8](repeating: 0, count: 65_536)
                while true {
                    let count = chunk.withUnsafeMutableBytes { archive_read_data(archive, $0.baseAddress, $0.count) }
                    guard count > 0 else {
                        if count < 0 { throw Failure(description: "reading \(name): " + message(archive)) }
                        break
                    }
                    bytes += chunk[0..<count]
                }
                result.append((name, bytes))
            }
        }
        return result
    }

    static func check(_ archive: OpaquePointer, _ status: Int32) throws {
        guard status == ARCHIVE_OK else { throw Failure(description: message(archive)) }
    }

    static func message(_ archive: OpaquePointer) -> String {
        archive_error_string(archive).map { String(cString: $0) } ?? "libarchive error"
    }
}
