import CArchive

extension CompressedReader {
    /// Streams the decompressed content of the gzip file at `path` (`compressedSize` bytes, the bound of the running
    /// ratio) in chunks of at most 64 KiB, within `limits`, without holding the file or its content in memory; returns
    /// the decompressed size. The caller checks the 1F 8B signature first. Damage, truncation or a limit throws
    /// `Failure`: the caller knows how far its own reading got.
    public static func streamGzip(path: String, compressedSize: Int, limits: ArchiveLimits = .standard,
                                  chunk body: (UnsafeRawBufferPointer) throws -> Void) throws -> Int {
        guard let archive = archive_read_new() else { throw Failure(member: nil, reason: "archive_read_new failed") }
        defer { archive_read_free(archive) }
        archive_read_support_filter_gzip(archive)
        archive_read_support_format_raw(archive)
        guard archive_read_open_filename(archive, path, 1 << 16) == ARCHIVE_OK else {
            throw Failure(member: nil, reason: "cannot open the gzip data: " + message(archive))
        }
        var entry: OpaquePointer?
        let status = archive_read_next_header(archive, &entry)
        guard status == ARCHIVE_OK || status == ARCHIVE_WARN else {
            throw Failure(member: nil, reason: "damaged gzip archive: " + message(archive))
        }
        guard archive_filter_code(archive, 0) == ARCHIVE_FILTER_GZIP else {
            throw Failure(member: nil, reason: "damaged gzip data: incomplete gzip header")
        }
        var produced = 0
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { archive_read_data(archive, $0.baseAddress, $0.count) }
            if count == 0 { return produced }
            guard count > 0 else {
                throw Failure(member: nil, reason: "truncated or damaged gzip data after \(produced) bytes: " + message(archive))
            }
            produced += count
            try buffer.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            // The running ratio over the compressed bytes read so far: a bomb is stopped at its first 16 MiB.
            let consumed = min(Int(archive_filter_bytes(archive, -1)), compressedSize)
            if let violation = limits.violation(produced: produced, compressed: max(consumed, 1)) {
                throw Failure(member: nil, reason: "archive " + violation)
            }
        }
    }
}
