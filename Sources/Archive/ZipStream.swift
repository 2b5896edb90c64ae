import CArchive

extension CompressedReader {
    /// Streams the one regular file of the zip at `path` (`compressedSize` bytes, the bound of the running ratio) in
    /// decompressed chunks, within `limits`, without holding the archive or the member in memory. `member` sees each
    /// regular file's name and index before its first chunk and may throw to refuse it (a second file, a wrong
    /// name). Damage, truncation or a limit throws `Failure` with the member's name: the
    /// caller knows how far its own reading got.
    public static func streamZipMember(path: String, compressedSize: Int, limits: ArchiveLimits = .standard,
                                       member: (String, Int) throws -> Void,
                                       chunk body: (UnsafeRawBufferPointer) throws -> Void) throws -> StreamedMember {
        guard let archive = archive_read_new() else { throw Failure(member: nil, reason: "archive_read_new failed") }
        defer { archive_read_free(archive) }
        archive_read_support_format_zip(archive)
        guard archive_read_open_filename(archive, path, 1 << 16) == ARCHIVE_OK else {
            throw Failure(member: nil, reason: "cannot open the zip data: " + message(archive))
        }
        var found: StreamedMember?
        var index = 0
        var entry: OpaquePointer?
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let status = archive_read_next_header(archive, &entry)
            if status == ARCHIVE_EOF { break }
            guard status == ARCHIVE_OK || status == ARCHIVE_WARN else {
                throw Failure(member: nil, reason: "damaged zip archive: " + message(archive))
            }
            if archive_entry_filetype(entry) == 0o040000 { continue }
            let name = archive_entry_pathname(entry).map { String(cString: $0) } ?? ""
            try member(name, index)
            index += 1
            var produced = 0
            while true {
                let count = buffer.withUnsafeMutableBytes { archive_read_data(archive, $0.baseAddress, $0.count) }
                if count == 0 { break }
                guard count > 0 else {
                    throw Failure(member: name,
                                  reason: "truncated or damaged zip data after \(produced) bytes: " + message(archive))
                }
                produced += count
                try buffer.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
                // The ratio is checked against the compressed bytes read so far, not the whole file: a bomb is
                // stopped at its first 16 MiB however large the archive around it.
                let consumed = min(Int(archive_filter_bytes(archive, -1)), compressedSize)
                if let violation = limits.violation(produced: produced, compressed: max(consumed, 1)) {
                    throw Failure(member: name, reason: "archive " + violation)
                }
            }
            found = StreamedMember(name: name, bytes: produced)
        }
        guard let found else { throw Failure(member: nil, reason: "no file in the zip") }
        return found
    }

    /// What `streamZipMember` read: the member's name and decompressed size.
    public struct StreamedMember: Sendable, Equatable {
        /// The member's path in the zip.
        public let name: String
        /// Decompressed bytes.
        public let bytes: Int
    }
}
