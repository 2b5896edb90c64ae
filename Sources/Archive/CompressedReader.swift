import CArchive

/// Reads compressed input through libarchive — a gzip stream, or the regular files of a zip — within
/// `ArchiveLimits`, so a zip bomb is stopped before it fills memory.
public enum CompressedReader {
    /// Why compressed input could not be read: the member being read (nil for the container itself),
    /// the bytes of it decompressed before the failure, and libarchive's or the limit's reason.
    public struct Failure: Error, CustomStringConvertible {
        /// The zip member's path, nil for a gzip stream or the container itself.
        public let member: String?
        /// What was decompressed of the member before the failure (where the readable content ends).
        public let readable: [UInt8]
        /// What went wrong.
        public let reason: String

        /// `member: reason`.
        public var description: String { (member.map { $0 + ": " } ?? "") + reason }
    }

    /// The decompressed bytes of gzip data.
    public static func gunzip(_ bytes: [UInt8], limits: ArchiveLimits = .standard) throws(Failure) -> [UInt8] {
        guard bytes.starts(with: [0x1F, 0x8B]) else { throw Failure(member: nil, readable: [], reason: "not gzip data (no 1F 8B signature)") }
        return try read(bytes, limits: limits, zip: false).first?.1 ?? []
    }

    /// The regular files (path, bytes) of zip data, in archive order; directories are left out.
    public static func zipFiles(_ bytes: [UInt8], limits: ArchiveLimits = .standard) throws(Failure) -> [(String, [UInt8])] {
        guard bytes.starts(with: [0x50, 0x4B]) else { throw Failure(member: nil, readable: [], reason: "not zip data (no PK signature)") }
        return try read(bytes, limits: limits, zip: true)
    }

    static func read(_ bytes: [UInt8], limits: ArchiveLimits, zip: Bool) throws(Failure) -> [(String, [UInt8])] {
        let kind = zip ? "zip" : "gzip"
        guard let archive = archive_read_new() else { throw Failure(member: nil, readable: [], reason: "archive_read_new failed") }
        defer { archive_read_free(archive) }
        if zip {
            archive_read_support_format_zip(archive)
        } else {
            archive_read_support_filter_gzip(archive)
            archive_read_support_format_raw(archive)
        }
        var members: [(String, [UInt8])] = []
        var total = 0
        let result: Result<Void, Failure> = bytes.withUnsafeBytes { raw in
            // Handed to libarchive 64 KiB at a time, so the compressed bytes it has consumed are known as it goes.
            guard archive_read_open_memory2(archive, raw.baseAddress, raw.count, 1 << 16) == ARCHIVE_OK else {
                return .failure(Failure(member: nil, readable: [], reason: "cannot open the \(kind) data: " + message(archive)))
            }
            var entry: OpaquePointer?
            while true {
                let status = archive_read_next_header(archive, &entry)
                if status == ARCHIVE_EOF { return .success(()) }
                guard status == ARCHIVE_OK || status == ARCHIVE_WARN else {
                    return .failure(Failure(member: nil, readable: [], reason: "damaged \(kind) archive: " + message(archive)))
                }
                if !zip, archive_filter_code(archive, 0) != ARCHIVE_FILTER_GZIP {
                    return .failure(Failure(member: nil, readable: [], reason: "damaged gzip data: incomplete gzip header"))
                }
                if zip, archive_entry_filetype(entry) == 0o040000 { continue }
                let name = zip ? archive_entry_pathname(entry).map { String(cString: $0) } ?? "" : nil
                var data: [UInt8] = []
                var chunk = [UInt8](repeating: 0, count: 1 << 16)
                while true {
                    let count = chunk.withUnsafeMutableBytes { archive_read_data(archive, $0.baseAddress, $0.count) }
                    if count == 0 { break }
                    guard count > 0 else {
                        return .failure(Failure(member: name, readable: data,
                                                reason: "truncated or damaged \(kind) data after \(data.count) bytes: " + message(archive)))
                    }
                    data += chunk[0..<count]
                    total += count
                    // The ratio over the compressed bytes consumed so far, not the whole input: a bomb is stopped at
                    // its first 16 MiB (not at 200× the input, ~400 MiB for a 2 MB bomb), whatever surrounds it.
                    let consumed = min(Int(archive_filter_bytes(archive, -1)), bytes.count)
                    if let violation = limits.violation(produced: total, compressed: max(consumed, 1)) {
                        return .failure(Failure(member: name, readable: data, reason: "archive " + violation))
                    }
                }
                members.append((name ?? "", data))
            }
        }
        if case .failure(let failure) = result { throw failure }
        return members
    }

    static func message(_ archive: OpaquePointer) -> String {
        archive_error_string(archive).map { String(cString: $0) } ?? "libarchive error"
    }
}
